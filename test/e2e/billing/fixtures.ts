import { randomBytes } from 'node:crypto';
import type { DomainEvent } from '../../../src/common/events/domain-event';
import { DomainEvents } from '../../../src/common/events/domain-events';
import { OrderEventPayloads } from '../../../src/modules/billing/events/order-event-payloads.service';
import {
  ORDER_EVENT_KIND_OF,
  OrderEventKind,
  OrderEventPayload,
} from '../../../src/modules/billing/events/order-events';
import { TestApp } from '../../utils/test-app';
import { TestSeller } from '../../utils/auth';

const suffix = () => randomBytes(5).toString('hex');

/** Catalog rows inserted directly: billing reads them, the catalog API is built elsewhere. */
export async function insertProduct(
  t: TestApp,
  storeId: number,
  values: { name?: string; type?: 'one_time' | 'recurring'; price?: string | null; imageUrl?: string | null } = {},
): Promise<{ id: number; pid: string; name: string }> {
  const pid = `prd_${suffix()}`;
  const name = values.name ?? `Product ${pid}`;
  const rows: Array<{ id: number }> = await t.dataSource.query(
    `INSERT INTO products (store_id, pid, name, type, price, image_url) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [
      storeId,
      pid,
      name,
      values.type ?? 'one_time',
      values.price === undefined ? '100.00' : values.price,
      values.imageUrl === undefined ? 'https://img.example.com/p.png' : values.imageUrl,
    ],
  );
  return { id: rows[0].id, pid, name };
}

export async function insertPlan(
  t: TestApp,
  storeId: number,
  productId: number,
  values: { name?: string; price?: string; interval?: string; intervalCount?: number } = {},
): Promise<{ id: number; planId: string; name: string }> {
  const planId = `pln_${suffix()}`;
  const name = values.name ?? 'Monthly';
  const rows: Array<{ id: number }> = await t.dataSource.query(
    `INSERT INTO plans (store_id, product_id, plan_id, name, price, interval, interval_count) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
    [storeId, productId, planId, name, values.price ?? '300.00', values.interval ?? 'month', values.intervalCount ?? 1],
  );
  return { id: rows[0].id, planId, name };
}

export async function insertBump(
  t: TestApp,
  storeId: number,
  productId: number,
  bumpProductId: number,
  price: string,
): Promise<number> {
  const rows: Array<{ id: number }> = await t.dataSource.query(
    `INSERT INTO order_bumps (store_id, product_id, bump_product_id, price) VALUES ($1, $2, $3, $4) RETURNING id`,
    [storeId, productId, bumpProductId, price],
  );
  return rows[0].id;
}

export async function insertFile(
  t: TestApp,
  storeId: number,
  productId: number,
  file: { name: string; storageKey?: string; externalUrl?: string },
): Promise<void> {
  await t.dataSource.query(
    `INSERT INTO product_files (store_id, product_id, name, kind, storage_key, external_url, format) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      storeId,
      productId,
      file.name,
      file.storageKey ? 'upload' : 'link',
      file.storageKey ?? null,
      file.externalUrl ?? null,
      file.storageKey ? 'pdf' : 'link',
    ],
  );
}

export async function insertAffiliate(t: TestApp, storeId: number, commissionPercent: string): Promise<number> {
  const rows: Array<{ id: number }> = await t.dataSource.query(
    `INSERT INTO affiliates (store_id, name, email, commission_percent) VALUES ($1, 'Aff', 'aff@example.com', $2) RETURNING id`,
    [storeId, commissionPercent],
  );
  return rows[0].id;
}

export async function insertDiscount(
  t: TestApp,
  storeId: number,
  values: { code: string; type: 'fixed' | 'percent'; value: string; usesLimit?: number | null },
): Promise<number> {
  const rows: Array<{ id: number }> = await t.dataSource.query(
    `INSERT INTO discounts (store_id, code, code_key, type, value, uses_limit) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [storeId, values.code, values.code.toLowerCase(), values.type, values.value, values.usesLimit ?? null],
  );
  return rows[0].id;
}

export async function usedCount(t: TestApp, discountId: number): Promise<number> {
  const rows: Array<{ used_count: number }> = await t.dataSource.query(
    `SELECT used_count FROM discounts WHERE id = $1`,
    [discountId],
  );
  return rows[0].used_count;
}

export function customer(email = `buyer-${suffix()}@example.com`) {
  return { name: 'Ana Buyer', email, mobile_number: '+258841234567' };
}

export function orderBody(productPid: string, extra: Record<string, unknown> = {}) {
  return { amount: 150, product_pid: productPid, customer: customer(), ...extra };
}

export interface CreatedOrder {
  checkout_url: string;
  order_number: string;
  pay_token: string;
}

export async function createOrder(
  t: TestApp,
  seller: TestSeller,
  body: Record<string, unknown>,
): Promise<CreatedOrder> {
  const res = await t.http.post('/v1/orders').set(seller.auth).send(body);
  if (res.status !== 201) throw new Error(`order creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as CreatedOrder;
}

/** The path of a checkout URL on the app under test. */
export function pathOf(url: string): string {
  const u = new URL(url);
  return u.pathname + u.search;
}

/** An order event as a webhook listener sees it: the domain event and the payload built for it. */
export interface RecordedEvent {
  kind: OrderEventKind;
  name: string;
  storeId: number;
  productId: number;
  orderId: number;
  payload: OrderEventPayload;
  event: DomainEvent;
}

/** Records every order event the app publishes, with its the webhook payload built in its transaction. */
export function recordEvents(t: TestApp): RecordedEvent[] {
  const events: RecordedEvent[] = [];
  const payloads = t.app.get(OrderEventPayloads);
  t.app.get(DomainEvents).inTransaction([...ORDER_EVENT_KIND_OF.keys()], async (event, manager) => {
    const kind = ORDER_EVENT_KIND_OF.get(event.type)!;
    const orderId = event.refs.orderId!;
    const payload = await payloads.build(kind, orderId, manager);
    events.push({
      kind,
      name: event.type,
      storeId: event.storeId,
      productId: event.refs.productId!,
      orderId,
      payload,
      event,
    });
  });
  return events;
}

export function payJson(t: TestApp, payToken: string, body: Record<string, unknown>) {
  return t.http.post(`/pay/token/${payToken}/pay`).set('Accept', 'application/json').send(body);
}
