import { WebhookDeliveriesRepository } from '../../../src/modules/webhooks/webhook-deliveries.repository';
import { generateMessageId } from '../../../src/modules/webhooks/delivery/webhook-signer';
import { createSeller } from '../../utils/auth';
import { statementsOf } from '../../utils/statements';
import { createTestApp, TestApp } from '../../utils/test-app';

/** Deliveries created together in one transaction and attempts recorded together: each keeps its own. */
describe('webhook deliveries written together', () => {
  let t: TestApp;
  let deliveries: WebhookDeliveriesRepository;

  beforeAll(async () => {
    t = await createTestApp({ env: { WEBHOOK_WORKER: 'false' } });
    deliveries = t.app.get(WebhookDeliveriesRepository);
  });
  afterAll(() => t.close());

  it('inserts the deliveries of one transaction with their own targets, and records each attempt as made', async () => {
    const seller = await createSeller(t);
    const hooks: number[] = [];
    for (const url of ['http://127.0.0.1:9/a', 'http://127.0.0.1:9/b']) {
      const res = await t.http
        .post('/v1/webhooks')
        .set(seller.auth)
        .send({ url, events: ['order_approved'] });
      hooks.push(res.body.webhook.id as number);
    }
    const delivery = (url: string, n: number) => ({
      storeId: seller.storeId,
      eventKind: 'order_approved',
      orderId: null,
      url,
      payload: { order_number: `N-${n}`, z_first: 1, a_second: 2 },
      messageId: generateMessageId(),
      redeliveryOf: null,
    });
    const created = await t.dataSource.transaction((manager) =>
      Promise.all([
        deliveries.createForGroup(delivery('http://127.0.0.1:9/a', 1), [hooks[0]], manager),
        deliveries.createForGroup(delivery('http://127.0.0.1:9/b', 2), [hooks[1]], manager),
        deliveries.createForGroup(delivery('http://127.0.0.1:9/a', 3), [hooks[0], hooks[1]], manager),
      ]),
    );
    expect(created.map((d) => (d.payload as { order_number: string }).order_number)).toEqual(['N-1', 'N-2', 'N-3']);
    const targets = await deliveries.targetsOf(created.map((d) => d.id));
    expect(created.map((d) => targets.get(d.id))).toEqual([
      [hooks[0]],
      [hooks[1]],
      [hooks[0], hooks[1]].sort((a, b) => a - b),
    ]);
    // The payload as given, field order kept (a json column).
    const [raw] = await t.dataSource.query('SELECT payload::text AS p FROM webhook_deliveries WHERE id = $1', [
      created[0].id,
    ]);
    expect(raw.p).toBe('{"order_number":"N-1","z_first":1,"a_second":2}');

    const at = new Date('2031-01-02T03:04:05.678Z');
    const recorded = await statementsOf(() =>
      Promise.all([
        deliveries.record(created[0].id, {
          state: 'success',
          requestHeaders: { 'webhook-id': 'x' },
          attemptedAt: at,
          responseCode: 200,
          responseBody: 'ok',
          durationMs: 12,
          error: null,
        }),
        deliveries.record(created[1].id, {
          state: 'failed',
          requestHeaders: null,
          attemptedAt: at,
          responseCode: null,
          responseBody: null,
          durationMs: null,
          error: 'connection refused',
        }),
      ]),
    );
    // Both attempts in one UPDATE … FROM unnest.
    expect(recorded).toHaveLength(1);
    const [ok, failed, untouched] = await Promise.all(created.map((d) => deliveries.findById(d.id)));
    expect(ok).toMatchObject({
      state: 'success',
      requestHeaders: { 'webhook-id': 'x' },
      responseCode: 200,
      responseBody: 'ok',
      durationMs: 12,
      error: null,
    });
    expect(ok!.attemptedAt!.toISOString()).toBe(at.toISOString());
    expect(failed).toMatchObject({
      state: 'failed',
      requestHeaders: null,
      responseCode: null,
      error: 'connection refused',
    });
    expect(untouched).toMatchObject({ state: 'pending', attemptedAt: null });
  });

  it('records the other attempts of a turn when one of them cannot be written, which fails alone', async () => {
    const seller = await createSeller(t);
    const res = await t.http
      .post('/v1/webhooks')
      .set(seller.auth)
      .send({ url: 'http://127.0.0.1:9/c', events: ['order_approved'] });
    const hook = res.body.webhook.id as number;
    const created = await t.dataSource.transaction((manager) =>
      Promise.all(
        Array.from({ length: 3 }, (_, n) =>
          deliveries.createForGroup(
            {
              storeId: seller.storeId,
              eventKind: 'order_approved',
              orderId: null,
              url: 'http://127.0.0.1:9/c',
              payload: { n },
              messageId: generateMessageId(),
              redeliveryOf: null,
            },
            [hook],
            manager,
          ),
        ),
      ),
    );
    const attempt = (n: number, responseBody: string) => ({
      state: 'success' as const,
      requestHeaders: { 'webhook-id': `m-${n}` },
      attemptedAt: new Date(),
      responseCode: 200 + n,
      responseBody,
      durationMs: n,
      error: null,
    });
    const rowsOf = (ids: number[]): Promise<Array<{ state: string; response_code: number | null }>> =>
      t.dataSource.query('SELECT state, response_code FROM webhook_deliveries WHERE id = ANY($1) ORDER BY id', [ids]);

    // A response PostgreSQL refuses (a NUL character) fails its own record only (src/database/batch.ts).
    const ids = created.map((d) => d.id);
    const outcomes = await Promise.allSettled(
      ids.map((id, n) => deliveries.record(id, attempt(n, n === 1 ? 'bad \u0000 body' : `ok ${n}`))),
    );
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((await rowsOf(ids)).map((r) => [r.state, r.response_code])).toEqual([
      ['success', 200],
      ['pending', null],
      ['success', 202],
    ]);
  });
});
