import { checkoutOf, customerBody, deliveryStates, freePort, httpTo, SellerApi, sellerApi } from '../../factories/api';
import { createSeller } from '../../utils/auth';
import { ServiceProcess, spawnService, waitForHealthy } from '../../utils/service-process';
import { createTestApp, TestApp } from '../../utils/test-app';
import { Receiver, startReceiver, waitUntil } from '../webhooks/helpers';

jest.setTimeout(120_000);

const ORDERS = 24;

/**
 * Issue #7, done when: two instances of the service on one database, each with its webhook worker
 * on, take real orders and approvals; no event reaches a URL twice.
 */
describe('two service instances on one database', () => {
  let t: TestApp;
  let other: ServiceProcess;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    const port = await freePort();
    other = spawnService({
      DATABASE_URL: t.config.database.url!,
      PORT: String(port),
      BASE_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: `/tmp/commerce-test-${process.pid}`,
    });
    await waitForHealthy(other);
  });
  afterAll(async () => {
    await other?.stop('SIGTERM');
    await Promise.all(receivers.map((r) => r.close()));
    await t?.close();
  });

  it('approvals spread over both: each event once per URL group, with its own webhook-id', async () => {
    const seller = await createSeller(t);
    const here = sellerApi(t.http, seller.auth);
    const there = sellerApi(httpTo(other.url), seller.auth);
    const grouped = await startReceiver();
    const single = await startReceiver();
    receivers.push(grouped, single);
    const product = await here.product({ name: 'Ebook', price: 120 });
    await here.webhook({ url: grouped.url, events: ['order_approved', 'order_cancelled'] });
    await there.webhook({ url: grouped.url, events: ['order_approved'] });
    await there.webhook({
      url: single.url,
      events: ['order_approved', 'order_cancelled'],
      product_details: product.pid,
    });

    // Created on one instance, paid on the other; one in four declined.
    const apis: Array<[SellerApi, ReturnType<typeof httpTo>]> = [
      [here, httpTo(other.url)],
      [there, t.http],
    ];
    const outcomes = await Promise.all(
      Array.from({ length: ORDERS }, async (_, i) => {
        const [creator, payer] = apis[i % 2];
        const session = await creator.order({
          amount: 120,
          product_pid: product.pid,
          customer: customerBody(`two${i}@example.com`),
        });
        const status = await checkoutOf(payer, session).pay({
          payment_number: i % 4 === 3 ? '841230002' : '841234567',
        });
        return `${status === 'approved' ? 'order_approved' : 'order_cancelled'} ${session.order_number}`;
      }),
    );
    expect(outcomes.filter((o) => o.startsWith('order_cancelled'))).toHaveLength(ORDERS / 4);

    await grouped.waitFor(ORDERS, 30_000);
    await single.waitFor(ORDERS, 30_000);
    await waitUntil(
      async () => {
        const states = await deliveryStates(t.dataSource, seller.storeId);
        return !states.pending && !states.sending;
      },
      15_000,
      () => 'every delivery attempted',
    );
    // Time for a duplicate from either worker to show up.
    await new Promise((res) => setTimeout(res, 1500));

    for (const r of [grouped, single]) {
      expect(
        r.requests
          .map((q) => JSON.parse(q.body))
          .map((p) => `${p.order_type} ${p.order_number}`)
          .sort(),
      ).toEqual([...outcomes].sort());
      expect(new Set(r.requests.map((q) => q.headers['webhook-id'])).size).toBe(ORDERS);
    }
    expect(await deliveryStates(t.dataSource, seller.storeId)).toEqual({ success: 2 * ORDERS });
    // Both webhooks of the grouped URL signed each approval; the cancellations only one.
    const signatures = grouped.requests.map((q) => [
      JSON.parse(q.body).order_type,
      String(q.headers['webhook-signature']).split(' ').length,
    ]);
    for (const [kind, count] of signatures) expect(count).toBe(kind === 'order_approved' ? 2 : 1);
  });
});
