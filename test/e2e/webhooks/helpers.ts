import type { INestApplicationContext } from '@nestjs/common';
import type { Order } from '../../../src/modules/billing/orders/order.entity';
import { createServer, IncomingHttpHeaders, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { App, createApp, ready } from '../../../src/app.factory';
import { loadConfig } from '../../../src/config/app-config';
import { DatabaseConnection } from '../../../src/database/database-connection';
import { DomainEvents } from '../../../src/common/events/domain-events';
import { TEST_DATA_DIR } from '../../utils/run-process';
import { OrderEventPayloads } from '../../../src/modules/billing/events/order-event-payloads.service';
import {
  orderEvent,
  OrderEventKind,
  OrderEventPayload,
  OrderTransitionKind,
} from '../../../src/modules/billing/events/order-events';

/** A real HTTP receiver on 127.0.0.1 and a free port, recording every request. */
export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  /** How the next requests are answered (default 200 `{"received":true}`). */
  respond: (handler: (req: ReceivedRequest, res: ServerResponse) => void) => void;
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  receivedAt: number;
}

export async function startReceiver(path = '/hook'): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  let handler = (_req: ReceivedRequest, res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const received = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAt: Date.now(),
      };
      requests.push(received);
      handler(received, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    requests,
    respond: (next) => (handler = next),
    async waitFor(count, timeoutMs = 15_000) {
      await waitUntil(
        () => requests.length >= count,
        timeoutMs,
        () => `${requests.length}/${count} requests received`,
      );
      return requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export async function waitUntil(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 15_000,
  what = () => 'condition',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`Timed out after ${timeoutMs} ms waiting for: ${what()}`);
}

const suffix = () => randomBytes(4).toString('hex');

export interface TestProduct {
  id: number;
  pid: string;
  name: string;
}

/** A product row of the store (catalog's API may not exist yet on this branch). */
export async function insertProduct(
  dataSource: DataSource,
  storeId: number,
  options: { name?: string; type?: 'one_time' | 'recurring'; price?: string } = {},
): Promise<TestProduct> {
  const pid = `prd_${suffix()}`;
  const name = options.name ?? `Product ${pid}`;
  const [row] = await dataSource.query(
    `INSERT INTO products (store_id, pid, name, type, price, image_url) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [storeId, pid, name, options.type ?? 'one_time', options.price ?? '100.00', `https://cdn.example.com/${pid}.png`],
  );
  return { id: row.id, pid, name };
}

/** The keys of an order's webhook payload (the webhooks of the OpenAPI description), in the order they are sent. */
export const ORDER_PAYLOAD_KEYS = [
  'order_type',
  'order_number',
  'status',
  'transaction_id',
  'payment_method',
  'amount',
  'currency',
  'discount_amount',
  'coupon_code',
  'original_amount',
  'tracking',
  'plan_subscriber',
  'product',
  'customer',
  'affiliate',
  'order_bump',
  'brand',
  'image',
  'test',
];

/** A complete the webhook payload, as billing builds it. */
export function buildPayload(
  kind: OrderEventKind,
  orderNumber: string,
  product: TestProduct,
  recurring = false,
): OrderEventPayload {
  const transactionId = `txn_${suffix()}`;
  return {
    order_type: kind,
    order_number: orderNumber,
    status: kind === 'order_approved' ? 'approved' : kind === 'order_cancelled' ? 'cancelled' : 'refunded',
    transaction_id: transactionId,
    payment_method: 'mpesa',
    amount: 90,
    currency: 'MZN',
    discount_amount: 10,
    coupon_code: 'SAVE10',
    original_amount: 100,
    tracking: {
      utm_source: 'newsletter',
      utm_campaign: 'spring',
      utm_medium: 'email',
      utm_content: null,
      utm_term: null,
    },
    plan_subscriber: {
      plan_name: recurring ? 'Monthly' : null,
      start_date: recurring ? '2025-03-01T10:00:00.000000Z' : null,
      end_date: recurring ? '2025-04-01T10:00:00.000000Z' : null,
      status: recurring ? 'active' : null,
      plan_type: recurring ? 'recurring' : null,
      plan_interval: recurring ? 'month' : null,
      cancelled_at: null,
      portal_url: `http://127.0.0.1:3000/pay/order/${orderNumber}?transaction_id=${transactionId}`,
    },
    product: { name: product.name, price: '100.00', pid: product.pid },
    customer: {
      email: 'ana@example.com',
      name: 'Ana Maria',
      mobile_number: '+258841234567',
      payment_number: '841234567',
    },
    affiliate: [{ id: 3, name: 'Rui', email: 'rui@example.com', commission_percent: 10, commission_amount: 9 }],
    order_bump: [{ product_pid: 'prd_bump', name: 'Extra chapter', price: 15 }],
    brand: 'Ana Books',
    image: `https://cdn.example.com/${product.pid}.png`,
    test: false,
  };
}

export interface EmittedOrder {
  orderId: number;
  payload: OrderEventPayload;
}

/** What the helpers need of an application: its providers. */
export type EventSource = Pick<INestApplicationContext, 'get'>;

/**
 * Does what billing does: changes an order and publishes its domain event inside the same
 * transaction; the payload is the one billing builds for it there. `fail` throws after the
 * publish, so the transaction rolls back.
 */
export async function emitOrderEvent(
  dataSource: DataSource,
  app: EventSource,
  input: { kind: OrderTransitionKind; storeId: number; product: TestProduct; recurring?: boolean; fail?: boolean },
): Promise<EmittedOrder> {
  const orderNumber = `ORD-${suffix().toUpperCase()}`;
  const seed = buildPayload(input.kind, orderNumber, input.product, input.recurring);
  return dataSource.transaction(async (manager) => {
    const [customer] = await manager.query(
      `INSERT INTO customers (store_id, email, name, mobile_number) VALUES ($1, $2, 'Ana Maria', '+258841234567')
       ON CONFLICT (store_id, email) DO UPDATE SET name = EXCLUDED.name RETURNING id`,
      [input.storeId, `ana-${suffix()}@example.com`],
    );
    const [order] = await manager.query(
      `INSERT INTO orders (store_id, order_number, pay_token_hash, product_id, customer_id, status, currency,
                           original_amount, discount_amount, amount, transaction_id)
       VALUES ($1, $2, $3, $4, $5, $6, 'MZN', 100, 10, 90, $7) RETURNING id`,
      [
        input.storeId,
        orderNumber,
        randomBytes(32).toString('hex'),
        input.product.id,
        customer.id,
        seed.status,
        seed.transaction_id,
      ],
    );
    const event = orderEvent(
      input.kind,
      { id: order.id, storeId: input.storeId, productId: input.product.id, planId: null, status: seed.status } as Order,
      'pending',
      new Date(),
    );
    await app.get(DomainEvents).publish(event, manager);
    const payload = await app.get(OrderEventPayloads).build(input.kind, order.id, manager);
    if (input.fail) throw new Error('order change failed after the event');
    return { orderId: order.id as number, payload };
  });
}

/** Another instance of the service on an existing database (as a second replica would run). */
export async function createInstanceOn(
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<{ app: App; close(): Promise<void> }> {
  const config = loadConfig({
    NODE_ENV: 'test',
    // A process of its own (the crash test's) is given the test app's DATA_DIR, and so its secret.
    DATA_DIR: process.env.DATA_DIR ?? TEST_DATA_DIR,
    ...env,
    DATABASE_URL: databaseUrl,
  });
  const connection = await DatabaseConnection.open(config);
  const app = await createApp(config, connection);
  await ready(app);
  return { app, close: () => app.close() };
}
