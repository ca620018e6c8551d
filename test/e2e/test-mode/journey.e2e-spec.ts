import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { checkoutOf, customerBody, deliveryStates, sellerApi } from '../../factories/api';
import { createSeller, TestSeller } from '../../utils/auth';
import { runProcess } from '../../utils/run-process';
import { createTestApp, TestApp } from '../../utils/test-app';
import { ApiKeysService } from '../../../src/modules/identity/api-keys/api-keys.service';
import { ScopeRegistry } from '../../../src/modules/identity/scopes/scope-registry';
import { signSandboxCallback } from '../../../src/modules/billing/payments/gateways/sandbox/sandbox.gateway';
import { orderId, settledMessage } from '../emails/support';
import { SmtpSink } from '../emails/smtp-sink';
import { ORDER_PAYLOAD_KEYS, Receiver, startReceiver, waitUntil } from '../webhooks/helpers';

jest.setTimeout(240_000);

const HOUR = 3_600_000;
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/**
 * README, *Test mode*: under NODE_ENV=production with no payment gateway configured (so the sandbox
 * is off for live payments) and an SMTP server configured, a test key goes through the whole life of
 * a store while the live side of the same store sees nothing of it.
 */
describe('test mode in production, without a gateway', () => {
  let t: TestApp;
  let sink: SmtpSink;
  let seller: TestSeller;
  let testToken: string;
  let testReceiver: Receiver;
  let liveReceiver: Receiver;
  const dataDir = mkdtempSync(join(tmpdir(), 'test-mode-'));

  beforeAll(async () => {
    sink = await SmtpSink.start();
    testReceiver = await startReceiver('/test-hook');
    liveReceiver = await startReceiver('/live-hook');
    t = await createTestApp({
      env: {
        NODE_ENV: 'production',
        DATA_DIR: dataDir,
        SMTP_URL: sink.url(),
        MAIL_RETRY_DELAY_SECONDS: '1',
        // The receivers listen on loopback, which production refuses by default.
        WEBHOOK_ALLOW_PRIVATE: 'true',
        SUBSCRIPTION_SWEEP_SECONDS: '86400',
        LOG_LEVEL: 'warn',
      },
    });
    expect(t.config.payments.sandbox).toBe(false);
    seller = await createSeller(t);
    const scopes = t.app.get(ScopeRegistry).all();
    testToken = (
      await t.app
        .get(ApiKeysService)
        .create({ storeId: seller.storeId, sellerId: seller.sellerId, name: 'test', scopes, test: true })
    ).token;
    expect(testToken).toMatch(/^sk_test_[0-9A-Za-z]{40}$/);
  });
  afterAll(async () => {
    await t.close();
    await Promise.all([sink.close(), testReceiver.close(), liveReceiver.close()]);
  });

  const testAuth = () => bearer(testToken);

  it('a test key’s whole journey, while the live side sees nothing of it', async () => {
    const live = sellerApi(t.http, seller.auth);
    const test = sellerApi(t.http, testAuth());
    const events = ['order_approved', 'order_refund', 'order_cancelled'];
    await test.webhook({ url: testReceiver.url, events });
    await live.webhook({ url: liveReceiver.url, events });

    // Product, order, sandbox payment with the sandbox's notice on the checkout.
    const product = await test.product({ name: 'Test ebook', price: 120 });
    const session = await test.order({
      amount: 120,
      product_pid: product.pid,
      customer: customerBody('buyer@example.com'),
    });
    const page = await checkoutOf(t.http, session).view().expect(200);
    expect(page.text).toContain('data-testid="test-mode"');
    expect(page.text).toContain('value="mpesa"');
    expect(await checkoutOf(t.http, session).pay({ payment_number: '841234567' })).toBe('approved');
    const order = await test.getOrder(session.order_number);
    expect(order).toMatchObject({ status: 'approved' });
    expect(order.payments[0]).toMatchObject({ provider: 'sandbox', status: 'succeeded' });

    // The webhook, with `test: true` as its last field.
    const [approved] = await testReceiver.waitFor(1);
    const payload = JSON.parse(approved.body);
    expect(Object.keys(payload)).toEqual(ORDER_PAYLOAD_KEYS);
    expect(payload).toMatchObject({ order_type: 'order_approved', order_number: session.order_number, test: true });

    // The receipt: in the outbox directory, never through SMTP.
    const id = await orderId(t.dataSource, session.order_number);
    const receipt = await settledMessage(t.dataSource, 'receipt', id);
    expect(receipt.state).toBe('sent');
    expect(receipt.detail).toBe(join(dataDir, 'outbox', `receipt.order-${id}.${session.order_number}.eml`));
    const mail = await simpleParser(readFileSync(receipt.detail!));
    expect(mail.subject).toContain(session.order_number);

    // A subscription renews on the same sweep (`subscriptions:sweep --at`), charged by the sandbox.
    const club = await test.product({ name: 'Test club', type: 'recurring' });
    const plan = await test.plan({ product_pid: club.pid, name: 'Monthly', price: 300, interval: 'month' });
    t.clock.set(new Date('2031-03-10T09:00:00.000Z'));
    const subscribed = await test.order({
      amount: 300,
      product_pid: club.pid,
      plan_id: plan.plan_id,
      customer: customerBody('member@example.com'),
    });
    expect(await checkoutOf(t.http, subscribed).pay({ payment_number: '841230001' })).toBe('approved');
    const subscription = (await test.getOrder(subscribed.order_number)).subscription;
    const before = (await t.http.get(`/v1/subscriptions/${subscription.id}`).set(testAuth()).expect(200)).body
      .subscription;
    expect(before.end_date).toBe('2031-04-10T09:00:00.000000Z');
    const sweep = await runProcess(
      process.execPath,
      [
        '-r',
        'ts-node/register/transpile-only',
        'src/cli/main.ts',
        'subscriptions:sweep',
        '--at',
        new Date(Date.parse(before.end_date) - 48 * HOUR).toISOString(),
      ],
      {
        NODE_ENV: 'production',
        DATABASE_URL: t.config.database.url!,
        DATA_DIR: dataDir,
        BASE_URL: t.config.urls.base,
        SMTP_URL: sink.url(),
      },
    );
    expect(sweep.code).toBe(0);
    const renewal = sweep.json.renewal_orders.find((r: any) => r.subscription_id === subscription.id);
    expect(renewal).toBeDefined();
    expect(sweep.json.attempts).toContainEqual({
      subscription_id: subscription.id,
      order_number: renewal.order_number,
      attempt: 1,
      outcome: 'approved',
    });
    const after = (await t.http.get(`/v1/subscriptions/${subscription.id}`).set(testAuth()).expect(200)).body
      .subscription;
    expect(after).toMatchObject({ status: 'active', end_date: '2031-05-10T09:00:00.000000Z' });
    expect(after.orders).toEqual(expect.arrayContaining([subscribed.order_number, renewal.order_number]));
    expect((await test.getOrder(renewal.order_number)).payments[0]).toMatchObject({ provider: 'sandbox' });

    // A refund, through the sandbox too.
    expect((await test.refund(session.order_number)).status).toBe('refunded');
    await waitUntil(() => testReceiver.requests.some((r) => JSON.parse(r.body).order_type === 'order_refund'));
    const refund = testReceiver.requests.map((r) => JSON.parse(r.body)).find((p) => p.order_type === 'order_refund');
    expect(refund).toMatchObject({ order_number: session.order_number, test: true });
    await settledMessage(t.dataSource, 'refund', id);

    // The live side: its lists, its webhooks and the SMTP server saw none of it.
    for (const [path, key] of [
      ['/v1/orders', 'orders'],
      ['/v1/customers', 'customers'],
      ['/v1/products', 'products'],
      ['/v1/subscriptions', 'subscriptions'],
      ['/v1/plans', 'plans'],
    ]) {
      const res = await t.http.get(path).set(seller.auth).expect(200);
      expect({ path, items: res.body[key] }).toEqual({ path, items: [] });
    }
    const liveWebhooks = (await t.http.get('/v1/webhooks').set(seller.auth).expect(200)).body.webhooks;
    expect(liveWebhooks.map((w: { url: string }) => w.url)).toEqual([liveReceiver.url]);
    // The live figures (the sales report the dashboard home shows) count none of it; the test side's do.
    const range = '?from=2031-03-01&to=2031-04-30';
    const liveReport = (await t.http.get(`/v1/reports/sales${range}`).set(seller.auth).expect(200)).body.report;
    expect(liveReport).toMatchObject({ gross: 0, orders_paid: 0, active_subscriptions: 0, mrr: 0 });
    const testReport = (await t.http.get(`/v1/reports/sales${range}`).set(testAuth()).expect(200)).body.report;
    expect(testReport.orders_paid).toBeGreaterThan(0);
    expect(testReport.gross).toBeGreaterThan(0);
    expect(await deliveryStates(t.dataSource, seller.storeId)).toEqual({});
    expect(liveReceiver.requests).toEqual([]);
    expect(sink.accepted).toEqual([]);

    // The reset: a live key may not; the test key empties its store and keeps working.
    const refused = await t.http.delete('/v1/test-data').set(seller.auth).expect(403);
    expect(refused.body).toEqual({ status: 'error', message: 'Permission denied for this endpoint.' });
    expect(refused.headers['www-authenticate']).toMatch(/^Bearer realm="commerce-api", error="insufficient_scope"/);
    const reset = await t.http.delete('/v1/test-data').set(testAuth()).expect(200);
    expect(reset.body.status).toBe('success');
    expect(reset.body.deleted).toMatchObject({
      orders: 3,
      customers: 2,
      products: 2,
      plans: 1,
      subscriptions: 1,
      webhooks: 1,
      files: 0,
      discounts: 0,
      affiliates: 0,
    });
    for (const [path, key] of [
      ['/v1/orders', 'orders'],
      ['/v1/customers', 'customers'],
      ['/v1/products', 'products'],
      ['/v1/subscriptions', 'subscriptions'],
      ['/v1/webhooks', 'webhooks'],
    ]) {
      const res = await t.http.get(path).set(testAuth()).expect(200);
      expect({ path, items: res.body[key] }).toEqual({ path, items: [] });
    }
    await t.http.get(`/v1/orders/${session.order_number}`).set(testAuth()).expect(404);
    expect((await t.http.delete('/v1/test-data').set(testAuth()).expect(200)).body.deleted.orders).toBe(0);
    // The live store's webhook is still there.
    expect((await t.http.get('/v1/webhooks').set(seller.auth).expect(200)).body.webhooks).toHaveLength(1);
  });

  it('a live checkout refuses the sandbox in production, and a sandbox callback cannot approve a live order', async () => {
    const live = sellerApi(t.http, seller.auth);
    const product = await live.product({ name: 'Live ebook', price: 80 });
    const session = await live.order({
      amount: 80,
      product_pid: product.pid,
      customer: customerBody('live@example.com'),
    });
    const page = await checkoutOf(t.http, session).view().expect(200);
    expect(page.text).not.toContain('data-testid="test-mode"');
    const res = await t.http
      .post(`${new URL(session.checkout_url).pathname}/pay`)
      .set('Accept', 'application/json')
      .send({ payment_method: 'mpesa', payment_number: '841234567' })
      .expect(422);
    expect(res.body.errors).toEqual({ payment_method: ['No payment method is available.'] });

    const body = JSON.stringify({
      order_number: session.order_number,
      transaction_id: 'sbx_forged',
      status: 'approved',
    });
    await t.http
      .post('/v1/payments/sandbox/callback')
      .set('Content-Type', 'application/json')
      .set('X-Sandbox-Signature', signSandboxCallback(t.config.payments.sandboxSecret, body))
      .send(body)
      .expect(404);
    expect((await live.getOrder(session.order_number)).status).toBe('pending');
  });

  it('each mode’s ids are 404 to the other mode’s key (orders, customers, subscriptions, webhooks, discounts)', async () => {
    const live = sellerApi(t.http, seller.auth);
    const test = sellerApi(t.http, testAuth());
    const liveProduct = await live.product({ name: 'Live guide', price: 50 });
    const testProduct = await test.product({ name: 'Test guide', price: 50 });
    const liveOrder = await live.order({
      amount: 50,
      product_pid: liveProduct.pid,
      customer: customerBody('a@example.com'),
    });
    const testOrder = await test.order({
      amount: 50,
      product_pid: testProduct.pid,
      customer: customerBody('b@example.com'),
    });
    const liveDiscount = await live.discount({ code: 'LIVE10', type: 'percent', value: 10 });
    const testDiscount = await test.discount({ code: 'TEST10', type: 'percent', value: 10 });
    const liveHook = await live.webhook({ url: liveReceiver.url, events: ['order_approved'] });
    const testHook = await test.webhook({ url: testReceiver.url, events: ['order_approved'] });
    const [testCustomer] = (await t.http.get('/v1/customers').set(testAuth()).expect(200)).body.customers;
    const [liveCustomer] = (await t.http.get('/v1/customers').set(seller.auth).expect(200)).body.customers;

    const other = [
      [seller.auth, `/v1/orders/${testOrder.order_number}`],
      [seller.auth, `/v1/products/${testProduct.pid}`],
      [seller.auth, `/v1/customers/${testCustomer.id}`],
      [seller.auth, `/v1/discounts/${testDiscount.id}`],
      [seller.auth, `/v1/webhooks/${testHook.id}`],
      [testAuth(), `/v1/orders/${liveOrder.order_number}`],
      [testAuth(), `/v1/products/${liveProduct.pid}`],
      [testAuth(), `/v1/customers/${liveCustomer.id}`],
      [testAuth(), `/v1/discounts/${liveDiscount.id}`],
      [testAuth(), `/v1/webhooks/${liveHook.id}`],
    ] as const;
    for (const [auth, path] of other) {
      const res = await t.http.get(path).set(auth);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
    }
    // Writes too: an order of the other mode's product, a refund of the other mode's order.
    const cross = await t.http
      .post('/v1/orders')
      .set(testAuth())
      .send({ amount: 50, product_pid: liveProduct.pid, customer: customerBody('c@example.com') })
      .expect(404);
    expect(cross.body.message).toBe('Product not found.');
    await t.http.post(`/v1/orders/${testOrder.order_number}/refund`).set(seller.auth).expect(404);
    await t.http.delete(`/v1/products/${liveProduct.pid}`).set(testAuth()).expect(404);
    expect((await live.getOrder(liveOrder.order_number)).status).toBe('pending');
  });

  it('DELETE /v1/test-data: 401 without a token, 403 for a live key whatever its scopes', async () => {
    await t.http.delete('/v1/test-data').expect(401);
    const narrow = await seller.tokenWith(['products.read']);
    const res = await t.http.delete('/v1/test-data').set(bearer(narrow)).expect(403);
    expect(res.body.message).toBe('Permission denied for this endpoint.');
  });
});
