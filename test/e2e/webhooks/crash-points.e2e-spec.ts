import { ServerResponse } from 'node:http';
import { checkoutOf, customerBody, deliveryStates, freePort, httpTo, sellerApi } from '../../factories/api';
import { createSeller } from '../../utils/auth';
import { ServiceProcess, spawnService, waitForHealthy } from '../../utils/service-process';
import { createTestApp, TestApp } from '../../utils/test-app';
import { ReceivedRequest, Receiver, startReceiver, waitUntil } from './helpers';

jest.setTimeout(180_000);

const answerOk = (_req: unknown, res: ServerResponse) =>
  res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');

/**
 * Every committed event reaches every subscribed URL at least once, whatever point
 * of the delivery path a SIGKILL lands on (before the job is fetched, between fetch and claim,
 * between claim and answer, after the answer), with one instance restarted or another still alive.
 * A repeat carries the same `webhook-id`.
 */
describe('SIGKILL anywhere on the delivery path', () => {
  let t: TestApp;
  const services: ServiceProcess[] = [];
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    // Makes sellers and reads the database; it never sends a webhook itself.
    t = await createTestApp({ env: { WEBHOOK_WORKER: 'false' } });
  });
  afterAll(async () => {
    for (const service of services) await service.stop('SIGKILL');
    for (const r of receivers) await r.close();
    await t?.close();
  });

  beforeEach(async () => {
    // Each case starts from no running service (a failed case may have left some).
    for (const service of services.splice(0)) await service.stop('SIGKILL');
  });

  async function start(extra: Record<string, string> = {}): Promise<ServiceProcess> {
    const port = await freePort();
    const service = spawnService({
      DATABASE_URL: t.config.database.url!,
      PORT: String(port),
      BASE_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: `/tmp/commerce-test-${process.pid}`,
      ...extra,
    });
    services.push(service);
    await waitForHealthy(service);
    return service;
  }

  async function setUp(service: ServiceProcess) {
    const r = await startReceiver();
    receivers.push(r);
    const seller = await createSeller(t);
    const http = httpTo(service.url);
    const api = sellerApi(http, seller.auth);
    const product = await api.product({ name: 'Ebook', price: 150 });
    await api.webhook({ url: r.url, events: ['order_approved'] });
    return { r, seller, http, api, product };
  }

  function expectEveryOrderOnce(requests: ReceivedRequest[], orderNumbers: string[]): void {
    const byId = new Map<string, string>();
    for (const q of requests) {
      const id = String(q.headers['webhook-id']);
      const order = JSON.parse(q.body).order_number as string;
      // A repeat is the same event: same webhook-id, same order.
      if (byId.has(id)) expect(byId.get(id)).toBe(order);
      byId.set(id, order);
    }
    expect([...byId.values()].sort()).toEqual([...orderNumbers].sort());
  }

  it('50 orders paid, the service killed 0.4 s later and restarted: all 50 delivered', async () => {
    const first = await start();
    const { r, seller, http, api, product } = await setUp(first);
    // A slow receiver, so that the kill finds deliveries at every stage: sent and recorded, in
    // flight, claimed and fetched, still queued.
    r.respond((req, res) => setTimeout(() => answerOk(req, res), 150));
    const sessions = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        api.order({ amount: 150, product_pid: product.pid, customer: customerBody(`k${i}@example.com`) }),
      ),
    );
    const statuses = await Promise.all(sessions.map((s) => checkoutOf(http, s).pay({ payment_number: '841234567' })));
    expect(statuses).toEqual(Array(50).fill('approved'));
    await new Promise((res) => setTimeout(res, 400));
    first.child.kill('SIGKILL');
    await first.exited;
    const atKill = await deliveryStates(t.dataSource, seller.storeId);
    // Every approval committed its outbox row with it; the kill left some of them unfinished.
    expect(Object.values(atKill).reduce((x, y) => x + y, 0)).toBe(50);
    expect(atKill.success ?? 0).toBeLessThan(50);

    r.respond(answerOk);
    const second = await start();
    await waitUntil(
      async () => (await deliveryStates(t.dataSource, seller.storeId)).success === 50,
      45_000,
      () => `${r.requests.length} requests`,
    );
    expectEveryOrderOnce(
      r.requests,
      sessions.map((s) => s.order_number),
    );
    await second.stop('SIGTERM');
  });

  it('two instances: what the killed one had claimed is sent again by the live one, same webhook-id, no restart', async () => {
    const a = await start();
    const b = await start();
    const { r, seller, http, api, product } = await setUp(a);
    // B is paused while the deliveries are claimed, so that A holds them all: requests are held
    // open, each claim stays in flight.
    b.child.kill('SIGSTOP');
    r.respond(() => undefined);
    const sessions = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        api.order({ amount: 150, product_pid: product.pid, customer: customerBody(`two${i}@example.com`) }),
      ),
    );
    await Promise.all(sessions.map((s) => checkoutOf(http, s).pay({ payment_number: '841234567' })));
    await r.waitFor(6, 8_000);
    expect(await deliveryStates(t.dataSource, seller.storeId)).toEqual({ sending: 6 });
    // B runs again; A's claims are alive, so B leaves them alone.
    b.child.kill('SIGCONT');

    r.respond(answerOk);
    a.child.kill('SIGKILL');
    await a.exited;
    await waitUntil(
      async () => (await deliveryStates(t.dataSource, seller.storeId)).success === 6,
      30_000,
      () => `${r.requests.length} requests`,
    );
    expect(r.requests).toHaveLength(12);
    expectEveryOrderOnce(
      r.requests,
      sessions.map((s) => s.order_number),
    );
    const firstIds = r.requests
      .slice(0, 6)
      .map((q) => String(q.headers['webhook-id']))
      .sort();
    expect(
      r.requests
        .slice(6)
        .map((q) => String(q.headers['webhook-id']))
        .sort(),
    ).toEqual(firstIds);
    await b.stop('SIGTERM');
  });

  it('a job fetched by a worker that died before claiming it is sent at the next start, and only once', async () => {
    // An API-only service records the events; nothing is fetched or claimed.
    const apiOnly = await start({ WEBHOOK_WORKER: 'false' });
    const { r, seller, http, api, product } = await setUp(apiOnly);
    const sessions = await Promise.all(
      Array.from({ length: 3 }, (_, i) =>
        api.order({ amount: 150, product_pid: product.pid, customer: customerBody(`f${i}@example.com`) }),
      ),
    );
    await Promise.all(sessions.map((s) => checkoutOf(http, s).pay({ payment_number: '841234567' })));
    await apiOnly.stop('SIGKILL');
    // As a worker's fetch leaves them: active jobs (pg-boss hands them out again only once they
    // expire), their deliveries pending for longer than a queued job waits.
    const [, fetched] = await t.dataSource.query(
      `UPDATE pgboss.job SET state = 'active', started_on = now() WHERE name = 'webhook-delivery' AND state = 'created' AND data->>'deliveryId' IN (SELECT id::text FROM webhook_deliveries WHERE store_id = $1)`,
      [seller.storeId],
    );
    expect(fetched).toBe(3);
    await t.dataSource.query(
      `UPDATE webhook_deliveries SET created_at = now() - interval '1 minute' WHERE store_id = $1`,
      [seller.storeId],
    );
    expect(await deliveryStates(t.dataSource, seller.storeId)).toEqual({ pending: 3 });

    const worker = await start();
    await waitUntil(async () => (await deliveryStates(t.dataSource, seller.storeId)).success === 3, 20_000);
    await new Promise((res) => setTimeout(res, 1000));
    expect(r.requests).toHaveLength(3);
    expectEveryOrderOnce(
      r.requests,
      sessions.map((s) => s.order_number),
    );
    await worker.stop('SIGTERM');
  });
});
