import { createSeller, TestSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';
import { LicenseRateLimitGuard } from '../../../src/modules/billing/licenses/license-rate-limit.guard';
import { DAY, sweepAt } from '../subscriptions/helpers';
import { createOrder, insertBump, insertProduct, orderBody, payJson, recordEvents } from './fixtures';

const KEY = /^[A-Z2-7]{5}(-[A-Z2-7]{5}){3}$/;

/** decisions §16: license keys issued on approval, the public license API, the seller's API. */
describe('license keys', () => {
  let t: TestApp;
  let seller: TestSeller;
  let other: TestSeller;
  let app: { id: number; pid: string };

  beforeAll(async () => {
    t = await createTestApp({ env: { DATA_DIR: `/tmp/commerce-licenses-${process.pid}` } });
    seller = await createSeller(t);
    other = await createSeller(t);
    const created = await t.http
      .post('/v1/products')
      .set(seller.auth)
      .send({ name: 'Photo Editor', price: 150, license_keys: { enabled: true, activation_limit: 2 } })
      .expect(201);
    expect(created.body.product.license_keys).toEqual({ enabled: true, activation_limit: 2 });
    app = created.body.product;
  });
  afterAll(() => t.close());
  // Every request here comes from 127.0.0.1: each test starts with the minute's 60 unspent.
  beforeEach(async () => {
    const guard = t.app.get(LicenseRateLimitGuard);
    await Promise.all(['127.0.0.1', '::ffff:127.0.0.1', '::1'].map((ip) => guard.limiter.delete(ip)));
  });

  async function buy(productPid = app.pid, extra: Record<string, unknown> = {}) {
    const created = await createOrder(t, seller, orderBody(productPid, extra));
    await payJson(t, created.pay_token, { payment_method: 'mpesa', payment_number: '841234567' }).expect(200);
    const order = (await t.http.get(`/v1/orders/${created.order_number}`).set(seller.auth).expect(200)).body.order;
    return order;
  }

  const post = (path: string, body: unknown) => t.http.post(`/v1/licenses/${path}`).send(body as object);

  it('the product setting: default off, validated, and editable', async () => {
    const plain = await t.http.post('/v1/products').set(seller.auth).send({ name: 'No keys' }).expect(201);
    expect(plain.body.product.license_keys).toEqual({ enabled: false, activation_limit: null });
    const bad = await t.http
      .post('/v1/products')
      .set(seller.auth)
      .send({ name: 'x', license_keys: { enabled: 'yes', activation_limit: 0 } })
      .expect(422);
    expect(bad.body.errors).toEqual({
      'license_keys.enabled': ['license_keys.enabled must be a boolean.'],
      'license_keys.activation_limit': ['license_keys.activation_limit must be at least 1.'],
    });
    const patched = await t.http
      .patch(`/v1/products/${plain.body.product.pid}`)
      .set(seller.auth)
      .send({ license_keys: { enabled: true } })
      .expect(200);
    expect(patched.body.product.license_keys).toEqual({ enabled: true, activation_limit: null });
  });

  it('approval issues one key per licensed product, bumps included: on the order, in order_approved, on the portal; stored unreadable', async () => {
    const addon = await insertProduct(t, seller.storeId, { name: 'Preset pack' });
    await t.dataSource.query('UPDATE products SET license_keys_enabled = true WHERE id = $1', [addon.id]);
    const unlicensed = await insertProduct(t, seller.storeId, { name: 'Manual' });
    const bump1 = await insertBump(t, seller.storeId, app.id, addon.id, '20.00');
    const bump2 = await insertBump(t, seller.storeId, app.id, unlicensed.id, '5.00');
    const created = await createOrder(t, seller, orderBody(app.pid));
    const events = recordEvents(t);
    await payJson(t, created.pay_token, {
      payment_method: 'mpesa',
      payment_number: '841234567',
      bumps: [bump1, bump2],
    }).expect(200);
    const order = (await t.http.get(`/v1/orders/${created.order_number}`).set(seller.auth).expect(200)).body.order;
    expect(order.license_keys).toHaveLength(2);
    const [main, extra] = order.license_keys;
    expect(main).toEqual({
      id: expect.any(Number),
      key: expect.stringMatching(KEY),
      product_pid: app.pid,
      status: 'active',
      activation_limit: 2,
      activations: 0,
      expires_at: null,
    });
    expect(extra).toMatchObject({ product_pid: addon.pid, activation_limit: null, status: 'active' });
    expect(main.key).not.toBe(extra.key);

    expect(events[0].payload.license_keys).toEqual(order.license_keys);
    // `test` stays the last field; the keys come just before it.
    expect(Object.keys(events[0].payload).slice(-2)).toEqual(['license_keys', 'test']);
    // Nothing else of the spec payload changed: an order without keys has no such field.
    const plainProduct = await insertProduct(t, seller.storeId, { name: 'Ebook' });
    const plainEvents = recordEvents(t);
    await buy(plainProduct.pid);
    expect(plainEvents[0].payload).not.toHaveProperty('license_keys');

    const portal = await t.http
      .get(`/pay/order/${created.order_number}?transaction_id=${order.transaction_id}`)
      .expect(200);
    expect(portal.text).toContain(main.key);
    expect(portal.text).toContain(extra.key);

    // A dump of the table holds neither the key nor anything that works as one.
    const rows: Array<Record<string, unknown>> = await t.dataSource.query(
      'SELECT * FROM license_keys WHERE order_id = (SELECT id FROM orders WHERE order_number = $1)',
      [created.order_number],
    );
    const dump = JSON.stringify(rows);
    for (const k of [main.key, extra.key]) {
      expect(dump).not.toContain(k);
      expect(dump).not.toContain(k.replace(/-/g, ''));
    }
    await post('validate', { license_key: String(rows[0].key_hash) }).expect(404);
    await post('validate', { license_key: String(rows[0].key_sealed) }).expect(404);
  });

  it('activate, validate, deactivate: every answer', async () => {
    const order = await buy();
    const key: string = order.license_keys[0].key;

    const a = await post('activate', { license_key: key, instance_name: 'Laptop' }).expect(200);
    expect(a.body).toEqual({
      status: 'success',
      license: { ...order.license_keys[0], activations: 1 },
      instance: { id: expect.any(Number), name: 'Laptop' },
    });
    // Case and spaces of a typed key do not matter.
    const b = await post('activate', { license_key: ` ${key.toLowerCase()} `, instance_name: 'Desktop' }).expect(200);
    const full = await post('activate', { license_key: key, instance_name: 'Third' }).expect(422);
    expect(full.body).toEqual({ status: 'error', message: 'Activation limit reached.' });

    expect((await post('validate', { license_key: key }).expect(200)).body).toEqual({
      status: 'success',
      valid: true,
      reason: null,
      license: { ...order.license_keys[0], activations: 2 },
    });
    expect(
      (await post('validate', { license_key: key, instance_id: a.body.instance.id }).expect(200)).body,
    ).toMatchObject({ valid: true, reason: null });
    expect((await post('validate', { license_key: key, instance_id: 999999 }).expect(200)).body).toMatchObject({
      valid: false,
      reason: 'unknown_instance',
    });

    const d = await post('deactivate', { license_key: key, instance_id: b.body.instance.id }).expect(200);
    expect(d.body).toEqual({ status: 'success', license: { ...order.license_keys[0], activations: 1 } });
    await post('deactivate', { license_key: key, instance_id: b.body.instance.id }).expect(404, {
      status: 'error',
      message: 'Resource not found.',
    });
    await post('activate', { license_key: key, instance_name: 'Desktop again' }).expect(200);

    // Unknown keys, near misses and junk: one answer, which says nothing about closeness.
    const nearMiss = key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A');
    for (const guess of [
      nearMiss,
      'AAAAA-AAAAA-AAAAA-AAAAA',
      'not a key',
      key.replace(/-/g, ''),
      'K'.repeat(200_000),
    ]) {
      for (const [path, body] of [
        ['activate', { license_key: guess, instance_name: 'x' }],
        ['validate', { license_key: guess }],
        ['deactivate', { license_key: guess, instance_id: 1 }],
      ] as const) {
        const res = await post(path, body).expect(404);
        expect(res.body).toEqual({ status: 'error', message: 'License key not found.' });
      }
    }

    const invalid = await post('activate', {}).expect(422);
    expect(invalid.body.errors).toEqual({
      license_key: ['license_key is required.'],
      instance_name: ['instance_name is required.'],
    });
    expect((await post('deactivate', { license_key: key }).expect(422)).body.errors).toEqual({
      instance_id: ['instance_id is required.'],
    });
    expect((await post('validate', { license_key: 5 }).expect(422)).body.errors).toEqual({
      license_key: ['license_key must be a string.'],
    });
  });

  it('validate takes instance_id as deactivate does: a string or a fraction is 422, never converted', async () => {
    const order = await buy();
    const key: string = order.license_keys[0].key;
    const activated = await post('activate', { license_key: key, instance_name: 'Laptop' }).expect(200);
    const id: number = activated.body.instance.id;
    // decisions §5: a value of the wrong type is a 422 field error.
    for (const instanceId of [String(id), `${id}e0`, ` ${id} `, `${id}.0`, id + 0.5, true, [id], { id }]) {
      for (const path of ['validate', 'deactivate']) {
        const res = await post(path, { license_key: key, instance_id: instanceId }).expect(422);
        expect(res.body).toEqual({
          status: 'error',
          message: 'Validation failed.',
          errors: { instance_id: ['instance_id must be an integer.'] },
        });
      }
    }
    expect((await post('validate', { license_key: key, instance_id: id }).expect(200)).body).toMatchObject({
      valid: true,
      reason: null,
    });
  });

  it('two activations racing for the last free slot: exactly one wins', async () => {
    const order = await buy();
    const key: string = order.license_keys[0].key;
    await post('activate', { license_key: key, instance_name: 'first' }).expect(200);
    for (let round = 0; round < 3; round++) {
      const results = await Promise.all(
        ['a', 'b', 'c', 'd'].map((name) => post('activate', { license_key: key, instance_name: name })),
      );
      const won = results.filter((r) => r.status === 200);
      expect(won.length).toBe(round === 0 ? 1 : 0);
      expect(results.filter((r) => r.status === 422).length).toBe(round === 0 ? 3 : 4);
    }
    const [{ count }] = await t.dataSource.query(
      'SELECT count(*)::int AS count FROM license_instances WHERE license_key_id = $1',
      [order.license_keys[0].id],
    );
    expect(count).toBe(2);
    expect((await post('validate', { license_key: key }).expect(200)).body.license.activations).toBe(2);
  });

  it("the seller's API: list with filters, read with instances, disable and enable; scopes and stores", async () => {
    const order = await buy();
    const license = order.license_keys[0];
    await post('activate', { license_key: license.key, instance_name: 'Studio PC' }).expect(200);

    const list = await t.http.get(`/v1/licenses?order=${order.order_number}`).set(seller.auth).expect(200);
    expect(list.body).toMatchObject({ status: 'success', total: 1 });
    expect(list.body.licenses[0]).toMatchObject({ id: license.id, key: license.key, order_id: order.id });
    const byProduct = await t.http.get(`/v1/licenses?product=${app.pid}&status=active`).set(seller.auth).expect(200);
    expect(byProduct.body.licenses.length).toBeGreaterThan(1);
    expect(byProduct.body.licenses.every((l: { product_pid: string }) => l.product_pid === app.pid)).toBe(true);
    await t.http.get('/v1/licenses?status=lost').set(seller.auth).expect(422);
    expect((await t.http.get('/v1/licenses?order=ORD-NONE').set(seller.auth).expect(200)).body.licenses).toEqual([]);

    const one = await t.http.get(`/v1/licenses/${license.id}`).set(seller.auth).expect(200);
    expect(one.body.license.instances).toEqual([
      { id: expect.any(Number), name: 'Studio PC', created_at: expect.any(String) },
    ]);

    const disabled = await t.http.post(`/v1/licenses/${license.id}/disable`).set(seller.auth).expect(200);
    expect(disabled.body).toMatchObject({
      status: 'success',
      message: 'License key disabled.',
      license: { status: 'disabled' },
    });
    expect((await post('validate', { license_key: license.key }).expect(200)).body).toMatchObject({
      valid: false,
      reason: 'disabled',
    });
    expect((await post('activate', { license_key: license.key, instance_name: 'x' }).expect(422)).body.message).toBe(
      'License key is disabled.',
    );
    await t.http.post(`/v1/licenses/${license.id}/enable`).set(seller.auth).expect(200);
    expect((await post('validate', { license_key: license.key }).expect(200)).body.valid).toBe(true);

    await t.http.get('/v1/licenses').expect(401);
    const readOnly = await seller.tokenWith(['licenses.read']);
    const writeOnly = await seller.tokenWith(['licenses.write']);
    await t.http.post(`/v1/licenses/${license.id}/disable`).set('Authorization', `Bearer ${readOnly}`).expect(403);
    await t.http.get(`/v1/licenses/${license.id}`).set('Authorization', `Bearer ${writeOnly}`).expect(403);
    await t.http
      .get(`/v1/licenses/${license.id}`)
      .set(other.auth)
      .expect(404, { status: 'error', message: 'Resource not found.' });
    await t.http.post(`/v1/licenses/${license.id}/disable`).set(other.auth).expect(404);
    expect((await t.http.get('/v1/licenses').set(other.auth).expect(200)).body.licenses).toEqual([]);
    await t.http.get('/v1/licenses/99999999999').set(seller.auth).expect(404);

    const scopes = (await t.http.get('/v1/scopes').set(seller.auth).expect(200)).body.scopes.map(
      (s: { scope: string }) => s.scope,
    );
    expect(scopes).toEqual(expect.arrayContaining(['licenses.read', 'licenses.write']));
  });

  it('a refund disables the keys', async () => {
    const order = await buy();
    await t.http.post(`/v1/orders/${order.order_number}/refund`).set(seller.auth).expect(200);
    const after = (await t.http.get(`/v1/orders/${order.order_number}`).set(seller.auth).expect(200)).body.order;
    expect(after.license_keys[0].status).toBe('disabled');
    expect((await post('validate', { license_key: after.license_keys[0].key }).expect(200)).body).toMatchObject({
      valid: false,
      reason: 'disabled',
    });
  });

  it('a subscription key: expires_at follows each renewal, and the key expires with the subscription (the sweep)', async () => {
    const start = new Date(Date.now() + 3 * DAY);
    // `…0003`: paid now, declined on every automatic renewal (the customer pays one renewal by hand).
    const product = await insertProduct(t, seller.storeId, { name: 'Cloud Sync', type: 'recurring', price: null });
    await t.dataSource.query('UPDATE products SET license_keys_enabled = true WHERE id = $1', [product.id]);
    const plan = await t.http
      .post('/v1/plans')
      .set(seller.auth)
      .send({ product_pid: product.pid, name: 'Mensal', price: 300, interval: 'month' })
      .expect(201);
    t.clock.set(start);
    const created = await createOrder(
      t,
      seller,
      orderBody(product.pid, { amount: 300, plan_id: plan.body.plan.plan_id }),
    );
    await payJson(t, created.pay_token, { payment_method: 'mpesa', payment_number: '841230003' }).expect(200);
    let order = (await t.http.get(`/v1/orders/${created.order_number}`).set(seller.auth).expect(200)).body.order;
    const firstEnd = order.subscription.end_date;
    expect(order.license_keys[0]).toMatchObject({ status: 'active', expires_at: firstEnd });
    const key = order.license_keys[0].key;

    // The renewal order: created by the sweep, declined automatically, paid by hand at its link.
    const end = new Date(firstEnd);
    await sweepAt(t, new Date(end.getTime() - DAY));
    const [renewal] = await t.dataSource.query(
      `SELECT order_number FROM orders WHERE subscription_id = $1 AND status = 'pending'`,
      [order.subscription.id],
    );
    const link = await t.http
      .post(`/pay/order/${created.order_number}/subscription/renewal`)
      .set('Accept', 'application/json')
      .send({ transaction_id: order.transaction_id })
      .expect(200);
    const token = new URL(link.body.checkout_url).pathname.split('/').pop()!;
    // By hand at the checkout link the `…0003` number pays; the next automatic charge declines again.
    await payJson(t, token, { payment_method: 'mpesa', payment_number: '841230003' }).expect(200);
    const renewed = (await t.http.get(`/v1/orders/${renewal.order_number}`).set(seller.auth).expect(200)).body.order;
    expect(renewed.status).toBe('approved');
    order = (await t.http.get(`/v1/orders/${created.order_number}`).set(seller.auth).expect(200)).body.order;
    const subscription = (await t.http.get(`/v1/subscriptions/${order.subscription.id}`).set(seller.auth).expect(200))
      .body.subscription;
    expect(subscription.end_date).not.toBe(firstEnd);
    expect(order.license_keys[0]).toMatchObject({ status: 'active', expires_at: subscription.end_date });
    // The renewal order shows its subscription's key.
    expect(renewed.license_keys.map((k: { key: string }) => k.key)).toEqual([key]);
    // …and the seller's license list finds it by the renewal order too, not another subscription's.
    for (const ref of [renewal.order_number, created.order_number]) {
      const listed = await t.http.get(`/v1/licenses?order=${ref}`).set(seller.auth).expect(200);
      expect(listed.body.licenses.map((k: { id: number }) => k.id)).toEqual([order.license_keys[0].id]);
    }

    // Then nothing is paid: past_due, and expired after the grace period.
    const secondEnd = new Date(subscription.end_date);
    await sweepAt(t, new Date(secondEnd.getTime() - DAY));
    await sweepAt(t, new Date(secondEnd.getTime() + 3_600_000));
    expect((await post('validate', { license_key: key }).expect(200)).body.valid).toBe(true);
    await sweepAt(t, new Date(secondEnd.getTime() + 8 * DAY));
    expect(
      (await t.http.get(`/v1/subscriptions/${order.subscription.id}`).set(seller.auth).expect(200)).body.subscription
        .status,
    ).toBe('expired');
    expect((await post('validate', { license_key: key }).expect(200)).body).toMatchObject({
      valid: false,
      reason: 'expired',
      license: { status: 'expired' },
    });
    expect((await post('activate', { license_key: key, instance_name: 'x' }).expect(422)).body.message).toBe(
      'License key has expired.',
    );
    const id = order.license_keys[0].id;
    expect((await t.http.post(`/v1/licenses/${id}/enable`).set(seller.auth).expect(422)).body.message).toBe(
      'An expired license key cannot be enabled.',
    );
    expect((await t.http.post(`/v1/licenses/${id}/disable`).set(seller.auth).expect(422)).body.message).toBe(
      'An expired license key cannot be disabled.',
    );
  });

  it('a subscription cancelled at once: its key expires then, and expires_at says so', async () => {
    const product = await insertProduct(t, seller.storeId, { name: 'Cloud Backup', type: 'recurring', price: null });
    await t.dataSource.query('UPDATE products SET license_keys_enabled = true WHERE id = $1', [product.id]);
    const plan = await t.http
      .post('/v1/plans')
      .set(seller.auth)
      .send({ product_pid: product.pid, name: 'Mensal', price: 120, interval: 'month' })
      .expect(201);
    const now = new Date(Date.now() + 40 * DAY);
    t.clock.set(now);
    const created = await createOrder(
      t,
      seller,
      orderBody(product.pid, { amount: 120, plan_id: plan.body.plan.plan_id }),
    );
    await payJson(t, created.pay_token, { payment_method: 'mpesa', payment_number: '841234567' }).expect(200);
    const order = (await t.http.get(`/v1/orders/${created.order_number}`).set(seller.auth).expect(200)).body.order;
    const key = order.license_keys[0];
    expect(new Date(key.expires_at).getTime()).toBeGreaterThan(now.getTime());

    const cancelledAt = new Date(now.getTime() + DAY);
    t.clock.set(cancelledAt);
    await t.http
      .post(`/v1/subscriptions/${order.subscription.id}/cancel`)
      .set(seller.auth)
      .send({ at_period_end: false })
      .expect(200);
    const ended = (await t.http.get(`/v1/licenses/${key.id}`).set(seller.auth).expect(200)).body.license;
    expect(ended.status).toBe('expired');
    expect(new Date(ended.expires_at).getTime()).toBe(cancelledAt.getTime());
  });

  it('60 requests a minute per IP, then 429 with Retry-After; every answer counts down its RateLimit headers', async () => {
    let last = await post('validate', { license_key: 'AAAAA-AAAAA-AAAAA-AAAAA' });
    expect(last.status).toBe(404);
    expect(last.headers['ratelimit-limit']).toBe('60');
    expect(last.headers['ratelimit-remaining']).toBe('59');
    expect(Number(last.headers['ratelimit-reset'])).toBeGreaterThan(0);
    let n = 1;
    while (last.status !== 429 && n < 200) {
      last = await post('validate', { license_key: 'AAAAA-AAAAA-AAAAA-AAAAA' });
      n++;
    }
    expect(last.status).toBe(429);
    expect(last.body).toEqual({ status: 'error', message: 'Too many requests.' });
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
    expect(n).toBe(61);
    expect(last.headers['ratelimit-limit']).toBe('60');
    expect(last.headers['ratelimit-remaining']).toBe('0');
    expect(last.headers['ratelimit-reset']).toBe(last.headers['retry-after']);
    // The limit is per IP across the three routes, and a real key is refused too.
    await post('activate', { license_key: 'AAAAA-AAAAA-AAAAA-AAAAA', instance_name: 'x' }).expect(429);
  });
});
