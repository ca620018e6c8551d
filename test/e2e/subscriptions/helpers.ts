import type { DomainEvent } from '../../../src/common/events/domain-event';
import { DomainEvents } from '../../../src/common/events/domain-events';
import { SubscriptionSweep, SweepReport } from '../../../src/modules/billing/subscriptions/subscription-sweep.service';
import type { TestSeller } from '../../utils/auth';
import { ProcessResult, runProcess } from '../../utils/run-process';
import type { TestApp } from '../../utils/test-app';
import { createOrder, insertPlan, insertProduct, orderBody, payJson } from '../billing/fixtures';

export { ROOT } from '../../utils/run-process';
export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

export interface Subscribed {
  product: { id: number; pid: string; name: string };
  plan: { id: number; planId: string; name: string };
  orderNumber: string;
  transactionId: string;
  subscriptionId: number;
  subscription: any;
}

/**
 * A recurring product with a plan, and a customer who bought it at `at` (the test clock) paying
 * with `paymentNumber` (the sandbox: `…0003` pays now and is declined on every renewal).
 */
export async function subscribe(
  t: TestApp,
  seller: TestSeller,
  options: { at: Date; paymentNumber?: string; price?: string; interval?: string; email?: string },
): Promise<Subscribed> {
  const product = await insertProduct(t, seller.storeId, { name: 'Clube do Livro', type: 'recurring', price: null });
  const plan = await insertPlan(t, seller.storeId, product.id, {
    name: 'Mensal',
    price: options.price ?? '300.00',
    interval: options.interval ?? 'month',
  });
  t.clock.set(options.at);
  const body = orderBody(product.pid, { amount: Number(options.price ?? '300'), plan_id: plan.planId });
  if (options.email) body.customer = { ...body.customer, email: options.email };
  const created = await createOrder(t, seller, body);
  await payJson(t, created.pay_token, {
    payment_method: 'mpesa',
    payment_number: options.paymentNumber ?? '841230001',
  }).expect(200);
  const order = (await t.http.get(`/v1/orders/${created.order_number}`).set(seller.auth).expect(200)).body.order;
  if (order.status !== 'approved') throw new Error(`subscription order not approved: ${order.status}`);
  const subscription = (await t.http.get(`/v1/subscriptions/${order.subscription.id}`).set(seller.auth).expect(200))
    .body.subscription;
  return {
    product,
    plan,
    orderNumber: created.order_number,
    transactionId: order.transaction_id,
    subscriptionId: order.subscription.id,
    subscription,
  };
}

/**
 * The subscription's payment as a method that cannot charge without the customer (no number kept to
 * charge again): its renewals are paid through their link, which `subscription.renewal_due` emails.
 */
export async function withoutSavedNumber(t: TestApp, s: Subscribed): Promise<void> {
  await t.dataSource.query(`UPDATE orders SET payment_number = NULL WHERE order_number = $1`, [s.orderNumber]);
}

export async function getSubscription(t: TestApp, seller: TestSeller, id: number): Promise<any> {
  return (await t.http.get(`/v1/subscriptions/${id}`).set(seller.auth).expect(200)).body.subscription;
}

export async function getOrder(t: TestApp, seller: TestSeller, ref: string): Promise<any> {
  return (await t.http.get(`/v1/orders/${ref}`).set(seller.auth).expect(200)).body.order;
}

/** One sweep in the app under test, as of `at`, with the clock moved there too. */
export function sweepAt(t: TestApp, at: Date): Promise<SweepReport> {
  t.clock.set(at);
  return t.app.get(SubscriptionSweep).sweep(at);
}

/**
 * One sweep as of `at`, as it concerns subscription `id` (the sweep also moves the other tests'
 * subscriptions on); a sweep that failed on any subscription fails the test.
 */
export async function sweepFor(t: TestApp, id: number, at: Date): Promise<SweepReport> {
  const report = await sweepAt(t, at);
  if (report.errors.length) throw new Error(`sweep errors: ${JSON.stringify(report.errors)}`);
  return {
    at: report.at,
    renewal_orders: report.renewal_orders.filter((r) => r.subscription_id === id),
    attempts: report.attempts.filter((r) => r.subscription_id === id),
    past_due: report.past_due.filter((x) => x === id),
    expired: report.expired.filter((x) => x === id),
    cancelled: report.cancelled.filter((x) => x === id),
    errors: [],
  };
}

/** Every domain event the app commits from now on (recorded inside the transaction of the change). */
export function recordDomainEvents(t: TestApp): DomainEvent[] {
  const events: DomainEvent[] = [];
  t.app.get(DomainEvents).inTransaction('*', async (event) => {
    events.push(event);
  });
  return events;
}

export const ofSubscription = (events: DomainEvent[], subscriptionId: number) =>
  events.filter((e) => e.refs.subscriptionId === subscriptionId).map((e) => e.type);

/** `npm run cli -- …` on the test database, as an operator runs it. */
export function cli(t: TestApp, args: string[]): Promise<ProcessResult> {
  return runProcess(process.execPath, ['-r', 'ts-node/register/transpile-only', 'src/cli/main.ts', ...args], {
    NODE_ENV: 'test',
    DATABASE_URL: t.config.database.url!,
    DATA_DIR: t.config.dataDir,
    BASE_URL: t.config.urls.base,
  });
}

/** The n-th monthly period end from `start` as the contract computes it (UTC, clamped to the month's last day). */
export function monthsFrom(start: Date, months: number): Date {
  const index = start.getUTCFullYear() * 12 + start.getUTCMonth() + months;
  const year = Math.floor(index / 12);
  const month = index - year * 12;
  const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(
    Date.UTC(
      year,
      month,
      Math.min(start.getUTCDate(), last),
      start.getUTCHours(),
      start.getUTCMinutes(),
      start.getUTCSeconds(),
    ),
  );
}
