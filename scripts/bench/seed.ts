import { randomBytes } from 'node:crypto';
import { Api, mapConcurrent } from './api';
import { bulkInsertOrders, insertPayableOrders, query } from './database';

export const COUPON_CODE = 'BENCH10';
export const APPROVED_NUMBER = '841234567';

export interface CreatedOrder {
  order_number: string;
  pay_token: string;
  checkout_url: string;
}

export function orderBody(
  productPid: string,
  customerIndex: number,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    amount: 100,
    product_pid: productPid,
    customer: {
      name: `Customer ${customerIndex}`,
      email: `customer-${customerIndex}@bench.example`,
      mobile_number: '+258841234567',
    },
    ...extra,
  };
}

/** What the checkout's JSON client posts to pay with the sandbox (any number it approves). */
export const SANDBOX_PAYMENT = { payment_method: 'mpesa', payment_number: APPROVED_NUMBER };

/** Approves an order through the sandbox gateway, as the checkout page's form would. */
export async function approve(api: Api, order: CreatedOrder): Promise<void> {
  const res = await api.request<{ order_status?: string }>('POST', `${order.checkout_url}/pay`, SANDBOX_PAYMENT);
  if (res.order_status !== 'approved')
    throw new Error(`approval of ${order.order_number} answered ${JSON.stringify(res)}`);
}

export interface Store {
  productPid: string;
  recurringPid: string;
  planId: string;
  /** Ids (numeric) of orders created through the API: the GET /v1/orders/{id} rotation. */
  orderIds: number[];
  /** The customer whose orders are listed: a bulk customer with --orders, else an API-created one. */
  customerId: number;
  bulk: { orders: number; customers: number; seconds: number };
  notes: string[];
}

const API_ORDERS = 20;
/** The measured plan holds this many bulk orders at any --orders, see bulkInsertOrders. */
const PLAN_BULK_ORDERS = 1000;

/**
 * Seeds the store through the public API — products, a recurring product with a plan, a coupon
 * without a uses limit, customers through order creation, half of those orders approved — then,
 * with --orders N, clones those orders in bulk with SQL. Each step that fails is reported and the
 * benchmark goes on with what exists, so scenarios whose routes are missing show as error rows.
 */
export async function seedStore(
  api: Api,
  databaseUrl: string,
  storeId: number,
  bulkOrders: number,
): Promise<Partial<Store>> {
  const store: Partial<Store> = { notes: [], orderIds: [] };
  const step = async <T>(name: string, work: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await work();
    } catch (error) {
      store.notes!.push(`seed ${name} failed: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
  };

  const product = await step('POST /v1/products', () => api.post('/v1/products', { name: 'Bench course', price: 100 }));
  store.productPid = product?.product?.pid;
  const recurring = await step('POST /v1/products (recurring)', () =>
    api.post('/v1/products', { name: 'Bench club', type: 'recurring', price: 100 }),
  );
  store.recurringPid = recurring?.product?.pid;
  if (store.recurringPid) {
    const plan = await step('POST /v1/plans', () =>
      api.post('/v1/plans', { product_pid: store.recurringPid, name: 'Monthly', price: 100, interval: 'month' }),
    );
    store.planId = plan?.plan?.plan_id;
  }
  await step('POST /v1/discounts', () =>
    api.post('/v1/discounts', {
      code: COUPON_CODE,
      type: 'percent',
      value: 10,
      never_expires: true,
      single_use: false,
    }),
  );

  let oneTime: CreatedOrder[] = [];
  let planned: CreatedOrder[] = [];
  if (store.productPid) {
    oneTime =
      (await step('POST /v1/orders', () =>
        mapConcurrent(
          Array.from({ length: API_ORDERS }, (_, i) => i),
          5,
          (i) => api.post<CreatedOrder>('/v1/orders', orderBody(store.productPid!, i)),
        ),
      )) ?? [];
    await step('approve orders through the sandbox pay route', () =>
      mapConcurrent(
        oneTime.filter((_, i) => i % 2 === 0),
        5,
        (o) => approve(api, o),
      ),
    );
  }
  if (store.recurringPid && store.planId) {
    planned =
      (await step('POST /v1/orders (plan)', () =>
        mapConcurrent(
          Array.from({ length: 4 }, (_, i) => i),
          4,
          (i) => api.post<CreatedOrder>('/v1/orders', orderBody(store.recurringPid!, i, { plan_id: store.planId })),
        ),
      )) ?? [];
    await step('approve plan orders', () => mapConcurrent(planned, 4, (o) => approve(api, o)));
  }

  const numbers = [...oneTime, ...planned].map((o) => o.order_number);
  const rows = numbers.length
    ? await query<{ id: number; order_number: string; customer_id: number; status: string; plan_id: number | null }>(
        databaseUrl,
        'SELECT id, order_number, customer_id, status, plan_id FROM orders WHERE order_number = ANY($1) ORDER BY id',
        [numbers],
      )
    : [];
  store.orderIds = rows.map((r) => r.id);
  store.customerId = rows[0]?.customer_id;
  store.bulk = { orders: 0, customers: 0, seconds: 0 };

  if (bulkOrders > 0) {
    const oneTimeTemplate = rows.find((r) => r.plan_id === null && r.status === 'approved');
    const planTemplate = rows.find((r) => r.plan_id !== null && r.status === 'approved');
    if (!oneTimeTemplate || !planTemplate) {
      store.notes!.push(
        '--orders skipped: bulk orders are cloned from approved orders the API created, and there are none yet',
      );
    } else {
      const result = await step('bulk insert of orders', () =>
        bulkInsertOrders(databaseUrl, {
          storeId,
          orders: bulkOrders,
          oneTimeTemplateOrderId: oneTimeTemplate.id,
          planTemplateOrderId: planTemplate.id,
          planOrders: PLAN_BULK_ORDERS,
        }),
      );
      if (result) {
        store.bulk = { orders: bulkOrders, customers: result.customers, seconds: result.seconds };
        if (result.measuredCustomerId) store.customerId = result.measuredCustomerId;
      }
    }
  }
  return store;
}

/** Customers of the orders `checkout.pay` pays: each pending order is a clone of one of theirs. */
const PAYING_CUSTOMERS = 20;
/** Their emails, apart from the seed's (0–19) and `orders.create`'s (1000–5999). */
const PAYING_CUSTOMER_BASE = 100_000;

export interface PayableOrders {
  /** The pay_tokens, one per pending order, in the order they are to be paid. */
  tokens: string[];
  /** The orders' numbers start with this. */
  orderNumberPrefix: string;
  /** `{pay_url}` path of a token's pay route: `/pay/token/{pay_token}/pay`. */
  payPath: (token: string) => string;
}

/**
 * `count` pending orders, each with its own pay_token, for `checkout.pay` (a paid order cannot be
 * paid again). A few are created through `POST /v1/orders`, for as many customers; the rest are
 * SQL clones of those (see {@link insertPayableOrders}), since creating tens of thousands over
 * HTTP would take longer than the run. `run` keeps each connection count's orders apart.
 */
export async function seedPayableOrders(
  api: Api,
  databaseUrl: string,
  productPid: string,
  count: number,
  run: number,
): Promise<PayableOrders> {
  const templates = await mapConcurrent(
    Array.from({ length: PAYING_CUSTOMERS }, (_, i) => i),
    5,
    (i) => api.post<CreatedOrder>('/v1/orders', orderBody(productPid, PAYING_CUSTOMER_BASE + i)),
  );
  const rows = await query<{ id: number }>(databaseUrl, 'SELECT id FROM orders WHERE order_number = ANY($1)', [
    templates.map((o) => o.order_number),
  ]);
  // `{pay_url}/token/{pay_token}` as the API answers it; the service serves the pay surface on its own port.
  const { pathname } = new URL(templates[0].checkout_url);
  const tokenPath = pathname.slice(0, pathname.length - templates[0].pay_token.length);
  const tokens = Array.from({ length: count }, () => randomBytes(16).toString('hex'));
  const orderNumberPrefix = `PAY${run}-`;
  await insertPayableOrders(databaseUrl, { templateOrderIds: rows.map((r) => r.id), tokens, orderNumberPrefix });
  return { tokens, orderNumberPrefix, payPath: (token) => `${tokenPath}${token}/pay` };
}
