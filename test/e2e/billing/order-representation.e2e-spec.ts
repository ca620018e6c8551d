import { checkoutOf, customerBody, SellerApi, sellerApi, TIMESTAMP } from '../../factories/api';
import { createSeller, TestSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';

/**
 * `GET /v1/orders/{id}` reads only what the representation shows, in one query, while the list and
 * the refund build it from whole entities. Both must give the same bytes for every kind of order,
 * and the customer's order list the same summary fields.
 */
describe('order representation: the single read, the list and the customer list agree', () => {
  let t: TestApp;
  let seller: TestSeller;
  let api: SellerApi;
  const numbers: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp();
    seller = await createSeller(t);
    api = sellerApi(t.http, seller.auth);

    const course = await api.product({ name: 'Curso', price: 100.1 });
    const presets = await api.product({ name: 'Presets', price: 40 });
    const album = await api.product({ name: 'Album', price: 60 });
    const presetsBump = await api.orderBump(course.id, { product_id: presets.id, price: 25.5 });
    const albumBump = await api.orderBump(course.pid, { product_pid: album.pid, price: 0.01 });
    const club = await api.product({ name: 'Clube', type: 'recurring', price: 300 });
    const monthly = await api.plan({
      product_pid: club.pid,
      name: 'Mensal',
      price: 299.99,
      interval: 'month',
      interval_count: 3,
    });
    await api.discount({ code: 'SAVE15', type: 'percentage', value: 15, uses_limit: 10 });
    const affiliate = await api.affiliate({ name: 'Rui', email: 'rui@example.com', commission_percent: 7.5 });
    const doomed = await api.product({ name: 'Doomed', price: 5 });

    const rich = await api.order({
      amount: 100,
      product_pid: course.pid,
      customer: customerBody('rich@example.com', { payment_number: '+258840000001' }),
      coupon_code: 'save15',
      affiliate_id: affiliate.id,
      tracking: { utm_source: 'newsletter', utm_term: 'foto' },
      return_url: 'https://shop.example.com/thanks',
      cancel_url: 'https://shop.example.com/cart',
    });
    expect(
      await checkoutOf(t.http, rich).pay({ payment_number: '841234567', bumps: [presetsBump.id, albumBump.id] }),
    ).toBe('approved');
    numbers.rich = rich.order_number;

    const subscribed = await api.order({
      amount: 299.99,
      product_pid: club.pid,
      plan_id: monthly.plan_id,
      customer: customerBody('club@example.com'),
    });
    expect(await checkoutOf(t.http, subscribed).pay({ payment_number: '841234567' })).toBe('approved');
    numbers.subscribed = subscribed.order_number;

    const refunded = await api.order({
      amount: 12.3,
      product_pid: course.pid,
      customer: customerBody('rich@example.com'),
    });
    expect(await checkoutOf(t.http, refunded).pay({ payment_method: 'emola', payment_number: '861234567' })).toBe(
      'approved',
    );
    await api.refund(refunded.order_number);
    numbers.refunded = refunded.order_number;

    const cancelled = await api.order({
      amount: 10,
      product_pid: course.pid,
      customer: customerBody('other@example.com'),
    });
    expect(await checkoutOf(t.http, cancelled).cancel()).toBe('cancelled');
    numbers.cancelled = cancelled.order_number;

    numbers.pending = (
      await api.order({ amount: 10.05, product_pid: course.pid, customer: customerBody('rich@example.com') })
    ).order_number;

    numbers.orphan = (
      await api.order({ amount: 15, product_pid: doomed.pid, customer: customerBody('other@example.com') })
    ).order_number;
    await t.http.delete(`/v1/products/${doomed.pid}`).set(seller.auth).expect(200);
  });
  afterAll(() => t.close());

  /** `order` of a response, serialised again: key order and values as sent. */
  const bytesOf = (order: unknown) => JSON.stringify(order);

  it('gives every order the same bytes by id, by order_number and in the list', async () => {
    const list = await t.http.get('/v1/orders?per_page=100').set(seller.auth).expect(200);
    expect(list.body.orders).toHaveLength(Object.keys(numbers).length);
    for (const listed of list.body.orders as Array<{ id: number; order_number: string }>) {
      const byId = await t.http.get(`/v1/orders/${listed.id}`).set(seller.auth).expect(200);
      const byNumber = await t.http.get(`/v1/orders/${listed.order_number}`).set(seller.auth).expect(200);
      expect(byId.text).toBe(byNumber.text);
      // The single read adds the payment attempts (README, *Taking payments*) and the license keys
      // (README, *Choices where the contract is silent*) after every field the list shows.
      const { payments, license_keys, ...shown } = byId.body.order as { payments: unknown[]; license_keys: unknown[] };
      expect(Array.isArray(payments)).toBe(true);
      expect(license_keys).toEqual([]);
      expect(bytesOf(shown)).toBe(bytesOf(listed));
      expect(byId.text).toBe(bytesOf({ status: 'success', order: { ...listed, payments, license_keys } }));
    }
  });

  it('shows every field of a rich order', async () => {
    const order = await api.getOrder(numbers.rich);
    expect(Object.keys(order)).toEqual([
      'id',
      'order_number',
      'amount',
      'currency',
      'status',
      'created_at',
      'updated_at',
      'original_amount',
      'discount_amount',
      'coupon_code',
      'discount',
      'product',
      'plan',
      'customer',
      'tracking',
      'transaction_id',
      'transaction',
      'affiliate',
      'order_bump',
      'subscription',
      'return_url',
      'cancel_url',
      'approved_at',
      'cancelled_at',
      'refunded_at',
      'payments',
      'license_keys',
    ]);
    expect(order).toEqual({
      id: expect.any(Number),
      order_number: numbers.rich,
      // 100 − 15 % + 25.50 + 0.01 in bumps
      amount: 110.51,
      currency: 'MZN',
      status: 'approved',
      created_at: expect.stringMatching(TIMESTAMP),
      updated_at: expect.stringMatching(TIMESTAMP),
      original_amount: 125.51,
      discount_amount: 15,
      coupon_code: 'SAVE15',
      discount: { id: expect.any(Number), code: 'SAVE15', amount: 15 },
      product: { id: expect.any(Number), pid: expect.any(String), name: 'Curso', type: 'one_time', price: 100.1 },
      plan: null,
      customer: {
        id: expect.any(Number),
        name: 'Ana Maria',
        email: 'rich@example.com',
        mobile_number: '+258841234567',
        payment_number: '+258840000001',
      },
      tracking: { utm_source: 'newsletter', utm_campaign: null, utm_medium: null, utm_content: null, utm_term: 'foto' },
      transaction_id: expect.stringMatching(/^sbx_/),
      transaction: { transaction_id: order.transaction_id, payment_method: 'mpesa', payment_number: '841234567' },
      // 7.5 % of 110.51 = 8.288… → 8.29
      affiliate: { id: expect.any(Number), commission_amount: 8.29 },
      order_bump: [
        { product_pid: expect.any(String), name: 'Presets', price: 25.5 },
        { product_pid: expect.any(String), name: 'Album', price: 0.01 },
      ],
      subscription: null,
      return_url: 'https://shop.example.com/thanks',
      cancel_url: 'https://shop.example.com/cart',
      approved_at: expect.stringMatching(TIMESTAMP),
      cancelled_at: null,
      refunded_at: null,
      payments: [
        {
          method: 'mpesa',
          provider: 'sandbox',
          status: 'succeeded',
          transaction_id: order.transaction_id,
          error_code: null,
          error_message: null,
          created_at: expect.stringMatching(TIMESTAMP),
        },
      ],
      license_keys: [],
    });
  });

  it('shows the plan and subscription of a plan order, and null for a deleted product', async () => {
    const subscribed = await api.getOrder(numbers.subscribed);
    expect(subscribed.plan).toEqual({
      plan_id: expect.any(String),
      name: 'Mensal',
      price: 299.99,
      interval: 'month',
      interval_count: 3,
    });
    expect(subscribed.subscription).toEqual({
      id: expect.any(Number),
      status: 'active',
      start_date: expect.stringMatching(TIMESTAMP),
      end_date: expect.stringMatching(TIMESTAMP),
      cancelled_at: null,
    });
    expect(await api.getOrder(numbers.orphan)).toMatchObject({ product: null, status: 'pending', amount: 15 });
    expect(await api.getOrder(numbers.refunded)).toMatchObject({
      status: 'refunded',
      refunded_at: expect.stringMatching(TIMESTAMP),
    });
  });

  it("lists a customer's orders with the summary fields of the full representation", async () => {
    const listed = (await t.http.get('/v1/orders?per_page=100').set(seller.auth).expect(200)).body.orders as Array<
      Record<string, unknown>
    >;
    const rich = listed.find((o) => o.order_number === numbers.rich) as { customer: { id: number } };
    const res = await t.http.get(`/v1/customers/${rich.customer.id}/orders`).set(seller.auth).expect(200);
    const summaryKeys = ['id', 'order_number', 'amount', 'currency', 'status', 'created_at', 'updated_at'];
    const expected = listed
      .filter((o) => (o.customer as { id: number }).id === rich.customer.id)
      .map((o) => Object.fromEntries(summaryKeys.map((key) => [key, o[key]])));
    expect(expected).toHaveLength(3);
    expect(bytesOf(res.body.orders)).toBe(bytesOf(expected));
  });
});
