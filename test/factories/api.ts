import request from 'supertest';
import TestAgent from 'supertest/lib/agent';
import { DataSource } from 'typeorm';

export { freePort } from '../utils/free-port';

/*
 * Factories that go through the public HTTP API only, so the same test can drive the in-process
 * app (`t.http`) or a service running as its own process (`request(service.url)`).
 */

export type Http = TestAgent;
export type Auth = { Authorization: string };
export type Body = Record<string, unknown>;

export const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** An agent on a running service (a child process, or an app listening on a port). */
export const httpTo = (baseUrl: string): Http => request(baseUrl) as unknown as Http;

function expectStatus(res: request.Response, status: number, what: string): void {
  if (res.status !== status)
    throw new Error(`${what}: expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
}

export interface CheckoutSession {
  checkout_url: string;
  order_number: string;
  pay_token: string;
}

/** The seller's side: every resource created with its own `POST /v1/…` route. */
export function sellerApi(http: Http, auth: Auth) {
  const create = async <T = Body>(path: string, body: Body, key: string): Promise<T> => {
    const res = await http.post(path).set(auth).send(body);
    expectStatus(res, 201, `POST ${path}`);
    return res.body[key] as T;
  };
  const get = async <T = Body>(path: string, key: string): Promise<T> => {
    const res = await http.get(path).set(auth);
    expectStatus(res, 200, `GET ${path}`);
    return res.body[key] as T;
  };
  return {
    product: (body: Body) => create<{ id: number; pid: string; name: string }>('/v1/products', body, 'product'),
    plan: (body: Body) => create<{ plan_id: string; name: string }>('/v1/plans', body, 'plan'),
    linkFile: (product: number | string, body: Body) =>
      create<{ id: number; link: string }>(`/v1/products/${product}/files`, body, 'file'),
    orderBump: (product: number | string, body: Body) =>
      create<{ id: number }>(`/v1/products/${product}/order-bumps`, body, 'order_bump'),
    discount: (body: Body) => create<{ id: number; code: string }>('/v1/discounts', body, 'discount'),
    affiliate: (body: Body) => create<{ id: number }>('/v1/affiliates', body, 'affiliate'),
    webhook: (body: Body) => create<{ id: number; secret: string }>('/v1/webhooks', body, 'webhook'),
    async order(body: Body): Promise<CheckoutSession> {
      const res = await http.post('/v1/orders').set(auth).send(body);
      expectStatus(res, 201, 'POST /v1/orders');
      return res.body as CheckoutSession;
    },
    getOrder: (ref: string | number) => get<Record<string, any>>(`/v1/orders/${ref}`, 'order'),
    getDiscount: (ref: string | number) => get<Record<string, any>>(`/v1/discounts/${ref}`, 'discount'),
    async refund(ref: string | number): Promise<Record<string, any>> {
      const res = await http.post(`/v1/orders/${ref}/refund`).set(auth);
      expectStatus(res, 200, `POST /v1/orders/${ref}/refund`);
      return res.body.order;
    },
  };
}

export type SellerApi = ReturnType<typeof sellerApi>;

export const customerBody = (email: string, extra: Body = {}) => ({
  name: 'Ana Maria',
  email,
  mobile_number: '+258841234567',
  ...extra,
});

/** The customer's side: the hosted checkout under `{pay_url}`, reached by the path of `checkout_url`. */
export function checkoutOf(http: Http, session: Pick<CheckoutSession, 'checkout_url'>) {
  const path = new URL(session.checkout_url).pathname;
  return {
    view: (query = '') => http.get(`${path}${query}`),
    /** Pays as a JSON client (README, *Taking payments*): `{status, order_number, order_status}`. */
    async pay(form: { payment_method?: string; payment_number: string; bumps?: number[] }): Promise<string> {
      const res = await http
        .post(`${path}/pay`)
        .set('Accept', 'application/json')
        .send({ payment_method: 'mpesa', ...form });
      expectStatus(res, 200, `POST ${path}/pay`);
      return res.body.order_status as string;
    },
    async cancel(): Promise<string> {
      const res = await http.post(`${path}/cancel`).set('Accept', 'application/json');
      expectStatus(res, 200, `POST ${path}/cancel`);
      return res.body.order_status as string;
    },
  };
}

/** States of the store's webhook deliveries (outbox rows), by count. */
export async function deliveryStates(dataSource: DataSource, storeId: number): Promise<Record<string, number>> {
  const rows: Array<{ state: string; n: number }> = await dataSource.query(
    `SELECT state, count(*)::int AS n FROM webhook_deliveries WHERE store_id = $1 GROUP BY state`,
    [storeId],
  );
  return Object.fromEntries(rows.map((r) => [r.state, r.n]));
}

/** `start` plus `months` calendar months in UTC, the last day of the month when it is shorter. */
export function addMonthsUtc(start: Date, months: number): Date {
  const index = start.getUTCFullYear() * 12 + start.getUTCMonth() + months;
  const year = Math.floor(index / 12);
  const month = index % 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(
    Date.UTC(
      year,
      month,
      Math.min(start.getUTCDate(), lastDay),
      start.getUTCHours(),
      start.getUTCMinutes(),
      start.getUTCSeconds(),
      start.getUTCMilliseconds(),
    ),
  );
}
