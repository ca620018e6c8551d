import { Webhook as StandardWebhook } from 'standardwebhooks';
import { createSeller, TestSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';
// After the app (test-app.ts loads it in the order the service boots in).
import { WebhooksService } from '../../../src/modules/webhooks';
import {
  emitOrderEvent,
  EventSource,
  insertProduct,
  ORDER_PAYLOAD_KEYS,
  Receiver,
  startReceiver,
  TestProduct,
  waitUntil,
} from './helpers';

interface CreatedWebhook {
  id: number;
  secret: string;
}

describe('Webhook delivery', () => {
  let t: TestApp;
  let events: EventSource;
  let seller: TestSeller;
  let product: TestProduct;
  let otherProduct: TestProduct;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    events = t.app;
    seller = await createSeller(t);
    product = await insertProduct(t.dataSource, seller.storeId);
    otherProduct = await insertProduct(t.dataSource, seller.storeId);
  });
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await t.close();
  });

  const receiver = async () => {
    const r = await startReceiver();
    receivers.push(r);
    return r;
  };
  const register = async (url: string, body: object = {}, who: TestSeller = seller): Promise<CreatedWebhook> =>
    (
      await t.http
        .post('/v1/webhooks')
        .set(who.auth)
        .send({ url, events: ['order_approved'], ...body })
        .expect(201)
    ).body.webhook;
  const emit = (
    kind: 'order_approved' | 'order_cancelled' | 'order_refund',
    p: TestProduct = product,
    extra: object = {},
  ) => emitOrderEvent(t.dataSource, events, { kind, storeId: seller.storeId, product: p, ...extra });
  const deliveriesOf = async (webhookId: number) =>
    (await t.http.get(`/v1/webhooks/${webhookId}/deliveries`).set(seller.auth).expect(200)).body.deliveries;
  const finishedDeliveries = async (webhookId: number, count: number) => {
    let list: Array<{ status: string }> = [];
    await waitUntil(
      async () => {
        list = await deliveriesOf(webhookId);
        return list.filter((d) => d.status !== 'pending').length >= count;
      },
      20_000,
      () => `${count} finished deliveries of webhook ${webhookId}`,
    );
    return list as never as Array<Record<string, any>>;
  };

  it('POSTs the payload exactly as billing built it, signed, and records success on the summary', async () => {
    const r = await receiver();
    const hook = await register(r.url);
    const { payload, orderId } = await emit('order_approved', product, { recurring: true });
    const [request] = await r.waitFor(1);

    expect(request.method).toBe('POST');
    expect(request.path).toBe('/hook');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.body).toBe(JSON.stringify(payload));
    const body = JSON.parse(request.body);
    expect(body).toEqual(payload);
    expect(Object.keys(body)).toEqual(ORDER_PAYLOAD_KEYS);
    expect(typeof body.amount).toBe('number');
    expect(typeof body.product.price).toBe('string');
    expect(body.plan_subscriber.portal_url).toMatch(/\/order\/ORD-.+\?transaction_id=txn_/);

    expect(request.headers['webhook-id']).toMatch(/^msg_/);
    expect(request.headers['webhook-timestamp']).toMatch(/^\d{10}$/);
    expect(new StandardWebhook(hook.secret).verify(request.body, request.headers as Record<string, string>)).toEqual(
      payload,
    );

    const [delivery] = await finishedDeliveries(hook.id, 1);
    expect(delivery).toEqual({
      id: expect.any(Number),
      event: 'order_approved',
      order_id: orderId,
      status: 'success',
      webhook_ids: [hook.id],
      redelivery_of: null,
      request: {
        url: r.url,
        headers: expect.objectContaining({
          'webhook-id': request.headers['webhook-id'],
          'webhook-signature': request.headers['webhook-signature'],
        }),
        payload,
      },
      response: { status_code: 200, body: '{"received":true}' },
      duration_ms: expect.any(Number),
      error: null,
      attempted_at: expect.stringMatching(/Z$/),
      created_at: expect.stringMatching(/Z$/),
    });
    const got = (await t.http.get(`/v1/webhooks/${hook.id}`).set(seller.auth).expect(200)).body.webhook;
    expect(got.summary).toEqual({
      last_delivery_at: delivery.attempted_at,
      last_delivery_status: 'success',
      last_response_code: 200,
    });
  });

  it('a signature made with another secret, or over another body, does not verify', async () => {
    const r = await receiver();
    const hook = await register(r.url);
    const stranger = await register('https://example.com/unrelated');
    await emit('order_approved');
    const [request] = await r.waitFor(1);
    expect(() =>
      new StandardWebhook(stranger.secret).verify(request.body, request.headers as Record<string, string>),
    ).toThrow();
    expect(() =>
      new StandardWebhook(hook.secret).verify(`${request.body} `, request.headers as Record<string, string>),
    ).toThrow();
    expect(new StandardWebhook(hook.secret).verify(request.body, request.headers as Record<string, string>)).toEqual(
      JSON.parse(request.body),
    );
  });

  it('groups the webhooks of one URL into one POST with a signature per secret, recorded on each', async () => {
    const r = await receiver();
    const a = await register(r.url, { events: ['order_cancelled'] });
    const b = await register(r.url, { events: ['order_cancelled', 'order_approved'], product_details: product.pid });
    const onlyApproved = await register(r.url, { events: ['order_approved'] });
    await emit('order_cancelled');
    const [request] = await r.waitFor(1);
    await new Promise((res) => setTimeout(res, 1500));
    expect(r.requests).toHaveLength(1);

    const signatures = (request.headers['webhook-signature'] as string).split(' ');
    expect(signatures).toHaveLength(2);
    for (const hook of [a, b]) {
      expect(new StandardWebhook(hook.secret).verify(request.body, request.headers as Record<string, string>)).toEqual(
        JSON.parse(request.body),
      );
    }
    expect(() =>
      new StandardWebhook(onlyApproved.secret).verify(request.body, request.headers as Record<string, string>),
    ).toThrow();

    const [da] = await finishedDeliveries(a.id, 1);
    const [db] = await finishedDeliveries(b.id, 1);
    expect(da.id).toBe(db.id);
    expect(da.webhook_ids).toEqual([a.id, b.id]);
    expect(await deliveriesOf(onlyApproved.id)).toEqual([]);
    for (const hook of [a, b]) {
      const summary = (await t.http.get(`/v1/webhooks/${hook.id}`).set(seller.auth).expect(200)).body.webhook.summary;
      expect(summary).toMatchObject({ last_delivery_status: 'success', last_response_code: 200 });
    }
  });

  it('groups URLs spelled differently for one destination (scheme case, dot segments)', async () => {
    const r = await receiver();
    const u = new URL(r.url);
    const spellings = [
      r.url,
      r.url.replace('http://', 'HTTP://'),
      `${u.protocol}//${u.host}/.${u.pathname}`,
      `${u.protocol}//${u.host}/x/..${u.pathname}`,
    ];
    const hooks = [];
    for (const url of spellings) hooks.push(await register(url, { events: ['order_refund'] }));
    await emit('order_refund');
    const [request] = await r.waitFor(1);
    await new Promise((res) => setTimeout(res, 1500));
    expect(r.requests).toHaveLength(1);
    expect((request.headers['webhook-signature'] as string).split(' ')).toHaveLength(spellings.length);
    // Each webhook keeps its URL as written.
    const stored = await Promise.all(
      hooks.map(async (h) => (await t.http.get(`/v1/webhooks/${h.id}`).set(seller.auth).expect(200)).body.webhook.url),
    );
    expect(stored).toEqual(spellings);
  });

  it('fires a product-limited webhook only for its product; inactive webhooks get nothing', async () => {
    const limited = await receiver();
    const everyProduct = await receiver();
    const inactive = await receiver();
    await register(limited.url, { product_details: product.id, events: ['order_approved', 'order_refund'] });
    await register(everyProduct.url, { events: ['order_approved', 'order_refund'] });
    const off = await register(inactive.url, { events: ['order_approved'] });
    await t.http.patch(`/v1/webhooks/${off.id}`).set(seller.auth).send({ status: 'inactive' }).expect(200);

    const other = await emit('order_approved', otherProduct);
    const mine = await emit('order_refund', product);
    await everyProduct.waitFor(2);
    await limited.waitFor(1);
    await new Promise((res) => setTimeout(res, 1500));
    expect(limited.requests).toHaveLength(1);
    expect(JSON.parse(limited.requests[0].body)).toEqual(mine.payload);
    expect(JSON.parse(limited.requests[0].body).order_type).toBe('order_refund');
    expect(everyProduct.requests.map((q) => JSON.parse(q.body).order_number).sort()).toEqual(
      [other.payload.order_number, mine.payload.order_number].sort(),
    );
    expect(inactive.requests).toHaveLength(0);
  });

  it('records a 500 as failed, with the code and body on the summary and in the log', async () => {
    const r = await receiver();
    r.respond((_req, res) => res.writeHead(500, { 'content-type': 'text/plain' }).end('boom'));
    const hook = await register(r.url);
    await emit('order_approved');
    const [delivery] = await finishedDeliveries(hook.id, 1);
    expect(delivery).toMatchObject({
      status: 'failed',
      response: { status_code: 500, body: 'boom' },
      error: 'The receiver answered 500.',
    });
    const summary = (await t.http.get(`/v1/webhooks/${hook.id}`).set(seller.auth).expect(200)).body.webhook.summary;
    expect(summary).toEqual({
      last_delivery_at: delivery.attempted_at,
      last_delivery_status: 'failed',
      last_response_code: 500,
    });
    await new Promise((res) => setTimeout(res, 1500));
    expect(r.requests).toHaveLength(1);
  });

  it('records an answer with NUL bytes (PostgreSQL text holds none) with each NUL shown as U+FFFD', async () => {
    const r = await receiver();
    r.respond((_req, res) => res.writeHead(200, { 'content-type': 'application/octet-stream' }).end('ok\u0000fine'));
    const hook = await register(r.url);
    await emit('order_approved');
    const [delivery] = await finishedDeliveries(hook.id, 1);
    expect(delivery).toMatchObject({ status: 'success', response: { status_code: 200, body: 'ok\uFFFDfine' } });
  });

  it('does not follow a redirect: a 302 is a failed delivery', async () => {
    const target = await receiver();
    const r = await receiver();
    r.respond((_req, res) => res.writeHead(302, { location: target.url }).end());
    const hook = await register(r.url);
    await emit('order_approved');
    const [delivery] = await finishedDeliveries(hook.id, 1);
    expect(delivery).toMatchObject({ status: 'failed', response: { status_code: 302 } });
    expect(target.requests).toHaveLength(0);
  });

  it('records a connection refused with no response code', async () => {
    const r = await receiver();
    const url = r.url;
    await r.close();
    const hook = await register(url);
    await emit('order_approved');
    const [delivery] = await finishedDeliveries(hook.id, 1);
    expect(delivery).toMatchObject({
      status: 'failed',
      response: null,
      error: expect.stringContaining('ECONNREFUSED'),
    });
    const summary = (await t.http.get(`/v1/webhooks/${hook.id}`).set(seller.auth).expect(200)).body.webhook.summary;
    expect(summary).toMatchObject({ last_delivery_status: 'failed', last_response_code: null });
  });

  it('gives up on a receiver that hangs after 10 s, while other deliveries go on', async () => {
    const hanging = await receiver();
    hanging.respond(() => undefined);
    const healthy = await receiver();
    const slow = await register(hanging.url);
    const fine = await register(healthy.url, { events: ['order_cancelled'] });
    const started = Date.now();
    await emit('order_approved');
    await hanging.waitFor(1);
    for (let i = 0; i < 5; i++) await emit('order_cancelled');
    await healthy.waitFor(5, 8_000);
    expect(Date.now() - started).toBeLessThan(9_000);
    await finishedDeliveries(fine.id, 5);
    expect((await deliveriesOf(slow.id))[0].status).toBe('pending');

    const [delivery] = await finishedDeliveries(slow.id, 1);
    expect(delivery).toMatchObject({
      status: 'failed',
      response: null,
      error: 'No complete response within 10 seconds.',
    });
    expect(delivery.duration_ms).toBeGreaterThanOrEqual(9_900);
    expect(delivery.duration_ms).toBeLessThan(12_000);
  }, 40_000);

  it('redelivers: a new attempt with the same payload and webhook-id, recorded on its own', async () => {
    const r = await receiver();
    r.respond((_req, res) => res.writeHead(503).end('down'));
    const hook = await register(r.url);
    const { payload } = await emit('order_approved');
    const [first] = await finishedDeliveries(hook.id, 1);
    expect(first.status).toBe('failed');

    r.respond((_req, res) => res.writeHead(204).end());
    const res = await t.http
      .post(`/v1/webhooks/${hook.id}/deliveries/${first.id}/redeliver`)
      .set(seller.auth)
      .expect(201);
    expect(res.body).toMatchObject({
      status: 'success',
      message: 'Redelivery queued.',
      delivery: {
        status: 'pending',
        redelivery_of: first.id,
        webhook_ids: [hook.id],
        request: { payload, headers: null },
        response: null,
      },
    });
    await r.waitFor(2);
    expect(r.requests[1].body).toBe(r.requests[0].body);
    expect(r.requests[1].headers['webhook-id']).toBe(r.requests[0].headers['webhook-id']);
    expect(
      new StandardWebhook(hook.secret).verify(r.requests[1].body, r.requests[1].headers as Record<string, string>),
    ).toEqual(payload);

    const log = await finishedDeliveries(hook.id, 2);
    expect(log.map((d) => [d.id, d.status])).toEqual([
      [res.body.delivery.id, 'success'],
      [first.id, 'failed'],
    ]);
    expect(log[0].response).toEqual({ status_code: 204, body: '' });
    const summary = (await t.http.get(`/v1/webhooks/${hook.id}`).set(seller.auth).expect(200)).body.webhook.summary;
    expect(summary).toMatchObject({ last_delivery_status: 'success', last_response_code: 204 });

    const other = await createSeller(t);
    await t.http.post(`/v1/webhooks/${hook.id}/deliveries/${first.id}/redeliver`).set(other.auth).expect(404);
    const unrelated = await register('https://example.com/unrelated-2');
    await t.http.post(`/v1/webhooks/${unrelated.id}/deliveries/${first.id}/redeliver`).set(seller.auth).expect(404);
  });

  it('writes nothing when the order change rolls back (outbox in the order transaction)', async () => {
    const r = await receiver();
    const hook = await register(r.url);
    await expect(emit('order_approved', product, { fail: true })).rejects.toThrow('order change failed');
    await new Promise((res) => setTimeout(res, 2000));
    expect(r.requests).toHaveLength(0);
    expect(await deliveriesOf(hook.id)).toEqual([]);
  });

  it('sends nothing, and records nothing, for a store without matching webhooks', async () => {
    const lonely = await createSeller(t);
    const p = await insertProduct(t.dataSource, lonely.storeId);
    await emitOrderEvent(t.dataSource, events, { kind: 'order_approved', storeId: lonely.storeId, product: p });
    const [{ count }] = await t.dataSource.query(
      `SELECT count(*)::int AS count FROM webhook_deliveries WHERE store_id = $1`,
      [lonely.storeId],
    );
    expect(count).toBe(0);
  });

  it('gives the dashboard each webhook with its recent deliveries', async () => {
    const shop = await createSeller(t);
    const p = await insertProduct(t.dataSource, shop.storeId);
    const r = await receiver();
    r.respond((_req, res) => res.writeHead(201).end('created'));
    const hook = (
      await t.http
        .post('/v1/webhooks')
        .set(shop.auth)
        .send({ url: r.url, events: ['order_approved'] })
        .expect(201)
    ).body.webhook;
    const quiet = (
      await t.http
        .post('/v1/webhooks')
        .set(shop.auth)
        .send({ url: 'https://example.com/q', events: ['order_refund'] })
        .expect(201)
    ).body.webhook;
    const emitted = await emitOrderEvent(t.dataSource, events, {
      kind: 'order_approved',
      storeId: shop.storeId,
      product: p,
    });
    await r.waitFor(1);
    const service = t.app.get(WebhooksService);
    const delivered = async () =>
      (await service.deliveryReport(shop.storeId)).find((x) => x.webhook.webhook.id === hook.id)?.deliveries[0]
        ?.delivery.state === 'success';
    await waitUntil(delivered);
    const report = await service.deliveryReport(shop.storeId);
    expect(report.map((x) => x.webhook.webhook.id).sort()).toEqual([hook.id, quiet.id].sort());
    const entry = report.find((x) => x.webhook.webhook.id === hook.id)!;
    expect(entry.deliveries).toHaveLength(1);
    expect(entry.deliveries[0].delivery).toMatchObject({
      payload: emitted.payload,
      responseCode: 201,
      responseBody: 'created',
    });
    expect(report.find((x) => x.webhook.webhook.id === quiet.id)!.deliveries).toEqual([]);
  });
});
