import { createSeller, TestSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';
import { emitOrderEvent, insertProduct, Receiver, startReceiver, TestProduct, waitUntil } from './helpers';

const PRODUCTION = { NODE_ENV: 'production', LOG_LEVEL: 'silent' };

describe('Webhook SSRF protection under NODE_ENV=production', () => {
  let t: TestApp;
  let seller: TestSeller;
  let product: TestProduct;
  let r: Receiver;

  beforeAll(async () => {
    t = await createTestApp({ env: PRODUCTION });
    seller = await createSeller(t);
    product = await insertProduct(t.dataSource, seller.storeId);
    r = await startReceiver();
  });
  afterAll(async () => {
    await r.close();
    await t.close();
  });

  it.each([
    'http://127.0.0.1:8080/hook',
    'http://localhost/hook',
    'http://10.1.2.3/hook',
    'http://172.20.0.1/hook',
    'http://192.168.1.10/hook',
    'http://100.64.0.1/hook',
    'http://169.254.169.254/latest/meta-data/',
    'http://0.0.0.0/hook',
    'http://[::1]/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://[::ffff:a9fe:a9fe]/hook',
    'http://[fe80::1]/hook',
    'http://[fd00:ec2::254]/hook',
    'http://[64:ff9b::a00:1]/hook',
  ])('refuses %s with 422 on url', async (url) => {
    const res = await t.http
      .post('/v1/webhooks')
      .set(seller.auth)
      .send({ url, events: ['order_approved'] })
      .expect(422);
    expect(res.body.message).toBe('Validation failed.');
    expect(Object.keys(res.body.errors)).toEqual(['url']);
    expect(res.body.errors.url[0]).toMatch(
      /^url must not resolve to a loopback, private, link-local or metadata address/,
    );
  });

  it('accepts a public address, and refuses moving it to a private one with PATCH', async () => {
    const created = await t.http
      .post('/v1/webhooks')
      .set(seller.auth)
      .send({ url: 'https://93.184.215.14/hook', events: ['order_approved'] })
      .expect(201);
    const res = await t.http
      .patch(`/v1/webhooks/${created.body.webhook.id}`)
      .set(seller.auth)
      .send({ url: 'http://127.0.0.1/x' })
      .expect(422);
    expect(Object.keys(res.body.errors)).toEqual(['url']);
    await t.http.delete(`/v1/webhooks/${created.body.webhook.id}`).set(seller.auth).expect(200);
  });

  it('re-checks at delivery: a URL that now points at a private address is a failed delivery, and nothing is sent', async () => {
    const created = await t.http
      .post('/v1/webhooks')
      .set(seller.auth)
      .send({ url: 'https://93.184.215.14/hook', events: ['order_approved'] })
      .expect(201);
    const id = created.body.webhook.id;
    // As if the name now resolved elsewhere: the stored URL reaches the local receiver.
    await t.dataSource.query(`UPDATE webhooks SET url = $1 WHERE id = $2`, [r.url, id]);
    await emitOrderEvent(t.dataSource, t.app, { kind: 'order_approved', storeId: seller.storeId, product });
    let deliveries: Array<Record<string, unknown>> = [];
    await waitUntil(async () => {
      deliveries = (await t.http.get(`/v1/webhooks/${id}/deliveries`).set(seller.auth).expect(200)).body.deliveries;
      return deliveries[0]?.status === 'failed';
    });
    expect(deliveries[0]).toMatchObject({
      status: 'failed',
      response: null,
      error: 'Refused: 127.0.0.1 resolves to a non-public address (127.0.0.1).',
    });
    expect(r.requests).toHaveLength(0);
    const summary = (await t.http.get(`/v1/webhooks/${id}`).set(seller.auth).expect(200)).body.webhook.summary;
    expect(summary).toMatchObject({ last_delivery_status: 'failed', last_response_code: null });
  });
});

describe('WEBHOOK_ALLOW_PRIVATE=true in production', () => {
  let t: TestApp;
  let r: Receiver;

  beforeAll(async () => {
    t = await createTestApp({ env: { ...PRODUCTION, WEBHOOK_ALLOW_PRIVATE: 'true' } });
    r = await startReceiver();
  });
  afterAll(async () => {
    await r.close();
    await t.close();
  });

  it('registers and delivers to a private address', async () => {
    const seller = await createSeller(t);
    const product = await insertProduct(t.dataSource, seller.storeId);
    await t.http
      .post('/v1/webhooks')
      .set(seller.auth)
      .send({ url: r.url, events: ['order_approved'] })
      .expect(201);
    await emitOrderEvent(t.dataSource, t.app, { kind: 'order_approved', storeId: seller.storeId, product });
    await r.waitFor(1);
  });
});
