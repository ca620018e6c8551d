import { ServerResponse } from 'node:http';
import { WORKER_CONCURRENCY } from '../../../src/modules/webhooks/delivery/webhook-worker';
import { checkoutOf, customerBody, deliveryStates, freePort, httpTo, sellerApi } from '../../factories/api';
import { createSeller } from '../../utils/auth';
import { ServiceProcess, spawnService, waitForHealthy } from '../../utils/service-process';
import { createTestApp, TestApp } from '../../utils/test-app';
import { Receiver, startReceiver, waitUntil } from '../webhooks/helpers';

jest.setTimeout(150_000);

const ORDERS = WORKER_CONCURRENCY + 4;
const answerOk = (_req: unknown, res: ServerResponse) =>
  res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');

/**
 * Issue #7, done when: the service (`src/main.ts`, its webhook worker on as by default) is killed
 * right after real approvals commit, restarted, and every event reaches the receiver. (README, *Choices where the contract is silent*):
 * at least once; an attempt the crash cut short is made again with the same `webhook-id`.
 */
describe('SIGKILL of the service right after approvals commit', () => {
  // Makes the seller and reads the database; API only, it never sends a webhook itself.
  let t: TestApp;
  let r: Receiver;
  const services: ServiceProcess[] = [];

  beforeAll(async () => {
    t = await createTestApp({ env: { WEBHOOK_WORKER: 'false' } });
    r = await startReceiver();
  });
  afterAll(async () => {
    for (const service of services) await service.stop('SIGKILL');
    await r?.close();
    await t?.close();
  });

  it('delivers every approval: queued at the crash once, in flight at the crash again with the same webhook-id, and nothing more when the crashed jobs come back', async () => {
    const port = await freePort();
    const env = {
      DATABASE_URL: t.config.database.url!,
      PORT: String(port),
      BASE_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: `/tmp/commerce-test-${process.pid}`,
    };
    const first = spawnService(env);
    services.push(first);
    const seller = await createSeller(t);
    await waitForHealthy(first);
    const http = httpTo(first.url);
    const api = sellerApi(http, seller.auth);
    const product = await api.product({ name: 'Ebook', price: 150 });
    const hook = await api.webhook({ url: r.url, events: ['order_approved'] });

    // The receiver holds every request open: each of the worker's slots stays busy with one
    // delivery that has reached the receiver, so none is claimed but unsent when the kill lands.
    r.respond(() => undefined);
    const sessions = await Promise.all(
      Array.from({ length: ORDERS }, (_, i) =>
        api.order({ amount: 150, product_pid: product.pid, customer: customerBody(`crash${i}@example.com`) }),
      ),
    );
    const statuses = await Promise.all(sessions.map((s) => checkoutOf(http, s).pay({ payment_number: '841234567' })));
    expect(statuses).toEqual(Array(ORDERS).fill('approved'));
    await r.waitFor(WORKER_CONCURRENCY, 10_000);
    first.child.kill('SIGKILL');
    await first.exited;

    expect(r.requests).toHaveLength(WORKER_CONCURRENCY);
    // Every approval committed its outbox row with it.
    expect(await deliveryStates(t.dataSource, seller.storeId)).toEqual({
      sending: WORKER_CONCURRENCY,
      pending: ORDERS - WORKER_CONCURRENCY,
    });

    r.respond(answerOk);
    const second = spawnService(env);
    services.push(second);
    await waitForHealthy(second);
    // The queued ones, and again the ones the dead worker had claimed (at least once).
    await r.waitFor(ORDERS + WORKER_CONCURRENCY, 20_000);
    await waitUntil(
      async () => (await deliveryStates(t.dataSource, seller.storeId)).success === ORDERS,
      10_000,
      () => 'every delivery recorded',
    );

    // The crashed worker's claimed jobs come back too, as pg-boss's maintenance does once they
    // expire (60 s, checked every 2 min): their deliveries are recorded, so nothing is sent again.
    const [, requeued] = await t.dataSource.query(
      `UPDATE pgboss.job SET state = 'retry', start_after = now() WHERE name = 'webhook-delivery' AND state = 'active'`,
    );
    expect(requeued).toBe(WORKER_CONCURRENCY);
    await waitUntil(
      async () => {
        const [{ n }] = await t.dataSource.query(
          `SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'webhook-delivery' AND state IN ('retry', 'active', 'created')`,
        );
        return n === 0;
      },
      15_000,
      () => 'requeued jobs done',
    );
    await new Promise((res) => setTimeout(res, 1000));

    expect(r.requests).toHaveLength(ORDERS + WORKER_CONCURRENCY);
    const byId = new Map<string, Set<string>>();
    for (const q of r.requests)
      byId.set(String(q.headers['webhook-id']), (byId.get(String(q.headers['webhook-id'])) ?? new Set()).add(q.body));
    // One webhook-id per order, and a repeat is the same message byte for byte.
    expect(byId.size).toBe(ORDERS);
    expect([...byId.values()].every((bodies) => bodies.size === 1)).toBe(true);
    const received = [...new Set(r.requests.map((q) => JSON.parse(q.body).order_number as string))].sort();
    expect(received).toEqual(sessions.map((s) => s.order_number).sort());
    expect(await deliveryStates(t.dataSource, seller.storeId)).toEqual({ success: ORDERS });
    const log = (await http.get(`/v1/webhooks/${hook.id}/deliveries?per_page=100`).set(seller.auth).expect(200)).body
      .deliveries as Array<Record<string, any>>;
    expect(log.map((d) => d.status)).toEqual(Array(ORDERS).fill('success'));

    await second.stop('SIGTERM');
    expect(second.output()).not.toMatch(/error/i);
  });
});
