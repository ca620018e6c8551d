import { Webhook as StandardWebhook } from 'standardwebhooks';
import { createSeller, TestSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';
import { insertProduct, ORDER_PAYLOAD_KEYS, Receiver, startReceiver } from './helpers';

/** `POST /v1/webhooks/{id}/test`. */
describe('POST /v1/webhooks/{id}/test', () => {
  let t: TestApp;
  let seller: TestSeller;
  let other: TestSeller;
  let receiver: Receiver;

  beforeAll(async () => {
    t = await createTestApp();
    seller = await createSeller(t, { brand: 'Test Brand', currency: 'USD' });
    other = await createSeller(t);
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  const register = async (who: TestSeller, body: object) =>
    (await t.http.post('/v1/webhooks').set(who.auth).send(body).expect(201)).body.webhook as {
      id: number;
      secret: string;
    };

  it('sends one signed sample order now, answers the recorded delivery, and logs it', async () => {
    const hook = await register(seller, { url: receiver.url, events: ['order_cancelled', 'order_approved'] });
    const before = receiver.requests.length;
    const res = await t.http.post(`/v1/webhooks/${hook.id}/test`).set(seller.auth).expect(200);

    // Sent before the answer: no waiting for a worker.
    expect(receiver.requests).toHaveLength(before + 1);
    const request = receiver.requests[before];
    const payload = new StandardWebhook(hook.secret).verify(
      request.body,
      request.headers as Record<string, string>,
    ) as Record<string, any>;
    expect(payload).toMatchObject({
      order_type: 'order_approved',
      order_number: expect.stringMatching(/^TEST-/),
      status: 'approved',
      currency: 'USD',
      brand: 'Test Brand',
      test: true,
      plan_subscriber: { portal_url: expect.stringContaining('/order/TEST-') },
      product: { price: '100.00' },
    });
    expect(Object.keys(payload)).toEqual(ORDER_PAYLOAD_KEYS);

    expect(res.body).toEqual({
      status: 'success',
      delivery: expect.objectContaining({
        id: expect.any(Number),
        event: 'order_approved',
        order_id: null,
        status: 'success',
        webhook_ids: [hook.id],
        response: { status_code: 200, body: '{"received":true}' },
        request: expect.objectContaining({ url: receiver.url, payload }),
      }),
    });
    const log = await t.http.get(`/v1/webhooks/${hook.id}/deliveries`).set(seller.auth).expect(200);
    expect(log.body.deliveries.map((d: { id: number }) => d.id)).toEqual([res.body.delivery.id]);
    const summary = await t.http.get(`/v1/webhooks/${hook.id}`).set(seller.auth).expect(200);
    expect(summary.body.webhook.summary).toMatchObject({ last_delivery_status: 'success', last_response_code: 200 });
  });

  it('uses the first event when the webhook does not listen to order_approved, and the product it is limited to', async () => {
    const product = await insertProduct(t.dataSource, seller.storeId, { name: 'Limited course' });
    const hook = await register(seller, { url: receiver.url, events: ['order_refund'], product_details: product.pid });
    const res = await t.http.post(`/v1/webhooks/${hook.id}/test`).set(seller.auth).expect(200);
    expect(res.body.delivery.request.payload).toMatchObject({
      order_type: 'order_refund',
      status: 'refunded',
      product: { name: 'Limited course', pid: product.pid },
    });
  });

  it('records a receiver failure in the delivery and still answers 200', async () => {
    const hook = await register(seller, { url: receiver.url, events: ['order_approved'] });
    receiver.respond((_req, res) => res.writeHead(500).end('boom'));
    try {
      const res = await t.http.post(`/v1/webhooks/${hook.id}/test`).set(seller.auth).expect(200);
      expect(res.body.delivery).toMatchObject({ status: 'failed', response: { status_code: 500, body: 'boom' } });
    } finally {
      receiver.respond((_req, res) =>
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}'),
      );
    }
  });

  it('can be redelivered from the log like any delivery', async () => {
    const hook = await register(seller, { url: receiver.url, events: ['order_approved'] });
    const before = receiver.requests.length;
    const sent = await t.http.post(`/v1/webhooks/${hook.id}/test`).set(seller.auth).expect(200);
    const again = await t.http
      .post(`/v1/webhooks/${hook.id}/deliveries/${sent.body.delivery.id}/redeliver`)
      .set(seller.auth)
      .expect(201);
    expect(again.body.delivery).toMatchObject({ order_id: null, redelivery_of: sent.body.delivery.id });
    // The redelivery is queued: it arrives after the answer, with the first attempt's webhook-id.
    const [first, second] = (await receiver.waitFor(before + 2)).slice(before);
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(second.body).toBe(first.body);
  });

  it('401 without a token, 403 without webhooks.write, 404 for another store or a missing id', async () => {
    const hook = await register(seller, { url: receiver.url, events: ['order_approved'] });
    const before = receiver.requests.length;
    await t.http.post(`/v1/webhooks/${hook.id}/test`).expect(401);
    const readOnly = await seller.tokenWith(['webhooks.read']);
    const denied = await t.http
      .post(`/v1/webhooks/${hook.id}/test`)
      .set('Authorization', `Bearer ${readOnly}`)
      .expect(403);
    expect(denied.body).toMatchObject({
      message: 'Permission denied for this endpoint.',
      required_scopes: ['webhooks.write'],
    });
    await t.http.post(`/v1/webhooks/${hook.id}/test`).set(other.auth).expect(404);
    await t.http.post('/v1/webhooks/999999/test').set(seller.auth).expect(404);
    await t.http.post('/v1/webhooks/abc/test').set(seller.auth).expect(404);
    expect(receiver.requests).toHaveLength(before);
  });

  it('is documented in the OpenAPI description with its scope', async () => {
    const doc = (await t.http.get('/docs-json').expect(200)).body;
    const op = doc.paths['/v1/webhooks/{id}/test'].post;
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '401', '403', '404']));
    expect(JSON.stringify(op)).toContain('webhooks.write');
  });
});
