// A client an integrator would write: types generated from the served description by
// openapi-typescript, calls made by openapi-fetch, nothing typed by hand. It creates a discount,
// an order that uses it and reads the order back. test/e2e/contract/typed-client.e2e-spec.ts
// generates ./generated/commerce-api.d.ts, type-checks this file against it (tsconfig.json here)
// and runs it against a live server: `node -r ts-node/register/transpile-only discount-order.ts <base_url> <token>`.
import createClient from 'openapi-fetch';
import type { paths } from './generated/commerce-api';

export async function discountOrderRoundTrip(baseUrl: string, token: string) {
  const api = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${token}` } });
  const fail = (step: string, result: { error?: unknown; response: Response }): never => {
    throw new Error(`${step} answered ${result.response.status}: ${JSON.stringify(result.error)}`);
  };

  const product = await api.POST('/v1/products', { body: { name: 'Typed client guide', price: 1500 } });
  if (!product.data) return fail('product', product);

  const code = `TYPED${Date.now() % 100000}`;
  const discount = await api.POST('/v1/discounts', {
    body: { code, type: 'percent', value: 10, product_ids: [product.data.product.id] },
  });
  if (!discount.data) return fail('discount', discount);

  const created = await api.POST('/v1/orders', {
    params: { header: { 'Idempotency-Key': `typed-${code}` } },
    body: {
      amount: 1500,
      product_pid: product.data.product.pid,
      customer: { name: 'Ana Macuácua', email: 'ana@example.com', mobile_number: '+258841234567' },
      coupon_code: discount.data.discount.code,
    },
  });
  if (!created.data?.order_number) return fail('order', created);

  const read = await api.GET('/v1/orders/{id}', { params: { path: { id: created.data.order_number } } });
  if (!read.data) return fail('read', read);
  const order = read.data.order;
  return {
    discount: {
      code: discount.data.discount.code,
      type: discount.data.discount.type,
      value: discount.data.discount.value,
    },
    order: {
      order_number: order.order_number,
      status: order.status,
      original_amount: order.original_amount,
      discount_amount: order.discount_amount,
      amount: order.amount,
      coupon_code: order.coupon_code,
      discount_code: order.discount?.code ?? null,
      product_pid: order.product?.pid ?? null,
      created_at: order.created_at,
    },
    checkout_url: created.data.checkout_url,
    rate_limit_remaining: read.response.headers.get('RateLimit-Remaining'),
  };
}

if (require.main === module) {
  const [baseUrl, token] = process.argv.slice(2);
  discountOrderRoundTrip(baseUrl, token).then(
    (result) => process.stdout.write(JSON.stringify(result)),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
