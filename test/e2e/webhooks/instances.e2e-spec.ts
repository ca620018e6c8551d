import { DataSource } from 'typeorm';
import { createSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';
import { createInstanceOn, emitOrderEvent, EventSource, insertProduct, Receiver, startReceiver } from './helpers';

describe('Several instances on one database', () => {
  let t: TestApp;
  let second: Awaited<ReturnType<typeof createInstanceOn>>;
  let third: Awaited<ReturnType<typeof createInstanceOn>>;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    second = await createInstanceOn(t.config.database.url!);
    // An API-only instance: it records events but never sends them.
    third = await createInstanceOn(t.config.database.url!, { WEBHOOK_WORKER: 'false' });
  });
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await third.close();
    await second.close();
    await t.close();
  });

  it('delivers a burst of events, emitted on every instance, once to each URL group', async () => {
    const seller = await createSeller(t);
    const product = await insertProduct(t.dataSource, seller.storeId);
    const grouped = await startReceiver();
    const single = await startReceiver();
    receivers.push(grouped, single);
    for (const url of [grouped.url, grouped.url, single.url]) {
      await t.http
        .post('/v1/webhooks')
        .set(seller.auth)
        .send({ url, events: ['order_approved'] })
        .expect(201);
    }

    const instances: Array<{ dataSource: DataSource; events: EventSource }> = [t.app, second.app, third.app].map(
      (app) => ({
        dataSource: app.get(DataSource),
        events: app,
      }),
    );
    const BURST = 45;
    const emitted = await Promise.all(
      Array.from({ length: BURST }, (_, i) =>
        emitOrderEvent(instances[i % 3].dataSource, instances[i % 3].events, {
          kind: 'order_approved',
          storeId: seller.storeId,
          product,
        }),
      ),
    );
    const expected = emitted.map((e) => e.payload.order_number).sort();

    await grouped.waitFor(BURST, 30_000);
    await single.waitFor(BURST, 30_000);
    // Time for any duplicate to show up.
    await new Promise((r) => setTimeout(r, 3000));
    for (const r of [grouped, single]) {
      expect(r.requests).toHaveLength(BURST);
      expect(r.requests.map((q) => JSON.parse(q.body).order_number).sort()).toEqual(expected);
      expect(new Set(r.requests.map((q) => q.headers['webhook-id'])).size).toBe(BURST);
    }
    const [{ states }] = await t.dataSource.query(
      `SELECT array_agg(DISTINCT state) AS states FROM webhook_deliveries WHERE store_id = $1`,
      [seller.storeId],
    );
    expect(states).toEqual(['success']);
  }, 60_000);
});
