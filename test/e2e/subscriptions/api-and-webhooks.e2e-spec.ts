import { createSeller, TestSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';
import { ORDER_PAYLOAD_KEYS, Receiver, startReceiver, waitUntil } from '../webhooks/helpers';
import {
  cli,
  DAY,
  getOrder,
  getSubscription,
  HOUR,
  recordDomainEvents,
  ofSubscription,
  subscribe,
  Subscribed,
  sweepFor,
} from './helpers';
import type { DomainEvent } from '../../../src/common/events/domain-event';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const KINDS = ['subscription_past_due', 'subscription_cancelled', 'subscription_expired'];

describe('Subscriptions API, CLI sweep and the subscription webhooks', () => {
  let t: TestApp;
  let seller: TestSeller;
  let receiver: Receiver;
  let events: DomainEvent[];

  beforeAll(async () => {
    t = await createTestApp({ env: { SUBSCRIPTION_SWEEP_SECONDS: '86400' } });
    seller = await createSeller(t, { brand: 'Loja Aurora' });
    receiver = await startReceiver();
    events = recordDomainEvents(t);
    const hook = await t.http
      .post('/v1/webhooks')
      .set(seller.auth)
      .send({ url: receiver.url, events: KINDS })
      .expect(201);
    expect(hook.body.webhook.events).toEqual(KINDS);
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  /** The webhook requests for `kind` and `orderNumber` once `count` of them arrived. */
  async function delivered(kind: string, orderNumber: string, count = 1): Promise<any[]> {
    const matching = () =>
      receiver.requests
        .map((r) => JSON.parse(r.body))
        .filter((p) => p.order_type === kind && p.order_number === orderNumber);
    await waitUntil(
      () => matching().length >= count,
      15_000,
      () => `${kind} for ${orderNumber}`,
    );
    return matching();
  }

  /** Field by field, for a subscription event about `orderNumber`. */
  function expectPayload(
    payload: any,
    s: Subscribed,
    expected: {
      kind: string;
      orderNumber: string;
      status: string;
      subscriptionStatus: string;
      amount: number;
      transactionId: string;
      cancelledAt: boolean;
      paymentNumber: string | null;
      /** Where `portal_url` leads when not to this order's own portal. */
      portal?: { orderNumber: string; transactionId: string };
    },
  ) {
    expect(Object.keys(payload).sort()).toEqual([...ORDER_PAYLOAD_KEYS].sort());
    expect(payload.order_type).toBe(expected.kind);
    expect(payload.order_number).toBe(expected.orderNumber);
    expect(payload.status).toBe(expected.status);
    expect(payload.transaction_id).toBe(expected.transactionId);
    expect(typeof payload.payment_method).toBe('string');
    expect(payload.amount).toBe(expected.amount);
    expect(payload.currency).toBe('MZN');
    expect(payload.discount_amount).toBe(0);
    expect(payload.coupon_code).toBeNull();
    expect(payload.original_amount).toBe(expected.amount);
    expect(payload.tracking).toEqual({
      utm_source: null,
      utm_campaign: null,
      utm_medium: null,
      utm_content: null,
      utm_term: null,
    });
    expect(payload.plan_subscriber).toEqual({
      plan_name: 'Mensal',
      start_date: s.subscription.start_date,
      end_date: expect.stringMatching(TIMESTAMP),
      status: expected.subscriptionStatus,
      plan_type: 'recurring',
      plan_interval: 'month',
      cancelled_at: expected.cancelledAt ? expect.stringMatching(TIMESTAMP) : null,
      portal_url: `${t.config.urls.pay}/order/${(expected.portal ?? expected).orderNumber}?transaction_id=${(expected.portal ?? expected).transactionId}`,
    });
    expect(payload.product).toEqual({ name: 'Clube do Livro', price: expected.amount.toFixed(2), pid: s.product.pid });
    expect(payload.customer).toEqual({
      email: expect.stringMatching(/@example\.com$/),
      name: 'Ana Buyer',
      mobile_number: '+258841234567',
      payment_number: expected.paymentNumber,
    });
    expect(payload.affiliate).toEqual([]);
    expect(payload.order_bump).toEqual([]);
    expect(payload.brand).toBe('Loja Aurora');
    expect(payload.image).toBe('https://img.example.com/p.png');
  }

  it('npm run cli -- subscriptions:sweep --at: renewal, past_due and expiry, each reaching webhooks once as (the webhooks of the OpenAPI description)', async () => {
    const s = await subscribe(t, seller, { at: new Date('2031-07-20T15:00:00.000Z'), paymentNumber: '841230003' });
    const end = new Date(s.subscription.end_date);
    expect(end.toISOString()).toBe('2031-08-20T15:00:00.000Z');

    const renewalAt = end.getTime() - 72 * HOUR;
    const renewalRun = await cli(t, ['subscriptions:sweep', '--at', new Date(renewalAt).toISOString()]);
    expect(renewalRun.code).toBe(0);
    expect(renewalRun.json).toMatchObject({ at: '2031-08-17T15:00:00.000000Z', errors: [] });
    const renewal = renewalRun.json.renewal_orders.find((r: any) => r.subscription_id === s.subscriptionId);
    expect(renewal).toEqual({ subscription_id: s.subscriptionId, order_number: expect.stringMatching(/^ORD-/) });
    expect(renewalRun.json.attempts).toContainEqual({
      subscription_id: s.subscriptionId,
      order_number: renewal.order_number,
      attempt: 1,
      outcome: 'declined',
    });
    // The renewal order is dated as of --at, not by the machine's clock; its payment attempt keeps
    // the clock's time, which reconciliation goes by (an attempt dated in the past would be failed
    // as unconfirmed while the customer may still be paying it).
    const [written] = (await t.dataSource.query(
      `SELECT o.created_at AS order_at, a.created_at AS attempt_at
         FROM orders o JOIN payment_attempts a ON a.order_id = o.id WHERE o.order_number = $1`,
      [renewal.order_number],
    )) as Array<{ order_at: Date; attempt_at: Date }>;
    expect(written.order_at.getTime()).toBe(renewalAt);
    expect(Math.abs(written.attempt_at.getTime() - Date.now())).toBeLessThan(5 * 60_000);

    const dueRun = await cli(t, ['subscriptions:sweep', '--at', end.toISOString()]);
    expect(dueRun.code).toBe(0);
    expect(dueRun.json.past_due).toContain(s.subscriptionId);
    const [pastDue] = await delivered('subscription_past_due', renewal.order_number);
    // Its declined attempt gave the pending renewal a transaction id and method: the payload names
    // them, and its portal link opens the renewal's own portal, where it can be paid.
    const declined = await getOrder(t, seller, renewal.order_number);
    expect(declined.status).toBe('pending');
    expect(declined.transaction_id).toBe(declined.payments[0].transaction_id);
    expectPayload(pastDue, s, {
      kind: 'subscription_past_due',
      orderNumber: renewal.order_number,
      status: 'pending',
      subscriptionStatus: 'past_due',
      amount: 300,
      transactionId: declined.transaction_id,
      cancelledAt: false,
      paymentNumber: null,
    });
    expect(pastDue.payment_method).toBe('mpesa');
    const portal = new URL(pastDue.plan_subscriber.portal_url);
    const page = await t.http.get(portal.pathname + portal.search).expect(200);
    expect(page.text).toContain(renewal.order_number);
    expect(pastDue.plan_subscriber.end_date).toBe(s.subscription.end_date);

    const expiryRun = await cli(t, ['subscriptions:sweep', `--at=${new Date(end.getTime() + 7 * DAY).toISOString()}`]);
    expect(expiryRun.code).toBe(0);
    expect(expiryRun.json.expired).toContain(s.subscriptionId);
    const [expired] = await delivered('subscription_expired', renewal.order_number);
    // The renewal order was cancelled with its subscription: the transaction id its declined attempts
    // gave it stays (the links to its portal keep opening), its portal open.
    const cancelledRenewal = await getOrder(t, seller, renewal.order_number);
    const cancellation = cancelledRenewal.transaction_id;
    expect(cancellation).toMatch(/^sbx_/);
    // Dated by the sweep's instant, as the renewal order's creation was: never cancelled before it was made.
    const expiryAt = new Date(end.getTime() + 7 * DAY).toISOString().replace('Z', '000Z');
    expect(cancelledRenewal.cancelled_at).toBe(expiryAt);
    expect(Date.parse(cancelledRenewal.cancelled_at)).toBeGreaterThan(Date.parse(cancelledRenewal.created_at));
    await t.http.get(`/pay/order/${renewal.order_number}?transaction_id=${cancellation}`).expect(200);
    expectPayload(expired, s, {
      kind: 'subscription_expired',
      orderNumber: renewal.order_number,
      status: 'cancelled',
      subscriptionStatus: 'expired',
      amount: 300,
      transactionId: cancellation,
      cancelledAt: false,
      paymentNumber: null,
    });

    // Run again at the same instant: nothing more, nothing sent twice.
    const again = await cli(t, ['subscriptions:sweep', '--at', new Date(end.getTime() + 7 * DAY).toISOString()]);
    expect(again.json.expired).not.toContain(s.subscriptionId);
    await new Promise((r) => setTimeout(r, 1500));
    expect(await delivered('subscription_past_due', renewal.order_number)).toHaveLength(1);
    expect(await delivered('subscription_expired', renewal.order_number)).toHaveLength(1);
    expect(ofSubscription(events, s.subscriptionId)).toEqual([]); // the CLI's events were published in its own process
    expect((await getSubscription(t, seller, s.subscriptionId)).status).toBe('expired');

    const bad = await cli(t, ['subscriptions:sweep', '--at', 'yesterday']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--at must be an ISO-8601 date-time');
    // Four CLI processes, each booting the whole app with ts-node: up to a minute each under the
    // full suite's parallel load.
  }, 240_000);

  it('cancel at period end: active until end_date with cancelled_at set, no renewal, then cancelled with subscription_cancelled', async () => {
    const s = await subscribe(t, seller, { at: new Date('2032-01-10T00:00:00.000Z') });
    const end = new Date(s.subscription.end_date);
    t.clock.set(new Date('2032-01-20T00:00:00.000Z'));
    const res = await t.http.post(`/v1/subscriptions/${s.subscriptionId}/cancel`).set(seller.auth).send({}).expect(200);
    expect(res.body).toMatchObject({ status: 'success', message: 'Subscription cancelled.' });
    expect(res.body.subscription).toMatchObject({
      id: s.subscriptionId,
      status: 'active',
      cancel_at_period_end: true,
      cancelled_at: '2032-01-20T00:00:00.000000Z',
      end_date: s.subscription.end_date,
    });
    const portal = (await t.http.get(`/pay/order/${s.orderNumber}?transaction_id=${s.transactionId}`).expect(200)).text;
    expect(portal).toContain(`Ends on</span><span>${s.subscription.end_date.slice(0, 10)}`);
    expect(portal).not.toContain('Renews on');

    expect((await sweepFor(t, s.subscriptionId, new Date(end.getTime() - 24 * HOUR))).renewal_orders).toEqual([]);
    expect((await sweepFor(t, s.subscriptionId, end)).cancelled).toEqual([s.subscriptionId]);
    const sub = await getSubscription(t, seller, s.subscriptionId);
    expect(sub).toMatchObject({
      status: 'cancelled',
      cancelled_at: '2032-01-20T00:00:00.000000Z',
      orders: [s.orderNumber],
    });
    const [payload] = await delivered('subscription_cancelled', s.orderNumber);
    expectPayload(payload, s, {
      kind: 'subscription_cancelled',
      orderNumber: s.orderNumber,
      status: 'approved',
      subscriptionStatus: 'cancelled',
      amount: 300,
      transactionId: s.transactionId,
      cancelledAt: true,
      paymentNumber: '841230001',
    });
    expect(ofSubscription(events, s.subscriptionId)).toEqual(['subscription.cancelled']);
    expect(
      (await t.http.get(`/pay/order/${s.orderNumber}?transaction_id=${s.transactionId}`).expect(200)).text,
    ).toContain(`Ended on</span><span>${s.subscription.end_date.slice(0, 10)}`);

    const twice = await t.http
      .post(`/v1/subscriptions/${s.subscriptionId}/cancel`)
      .set(seller.auth)
      .send({ at_period_end: false })
      .expect(409);
    expect(twice.body).toEqual({ status: 'error', message: 'Subscription has already ended.' });
  });

  it('cancel at period end with a renewal open cancels the renewal order now; cancel at once ends it now', async () => {
    const s = await subscribe(t, seller, { at: new Date('2033-02-01T00:00:00.000Z'), paymentNumber: '841230003' });
    const end = new Date(s.subscription.end_date);
    const report = await sweepFor(t, s.subscriptionId, new Date(end.getTime() - 12 * HOUR));
    const renewal = report.renewal_orders[0].order_number;
    await t.http
      .post(`/v1/subscriptions/${s.subscriptionId}/cancel`)
      .set(seller.auth)
      .send({ at_period_end: true })
      .expect(200);
    expect((await getOrder(t, seller, renewal)).status).toBe('cancelled');
    expect((await getSubscription(t, seller, s.subscriptionId)).status).toBe('active');

    t.clock.set(new Date(end.getTime() - 6 * HOUR));
    const now = await t.http
      .post(`/v1/subscriptions/${s.subscriptionId}/cancel`)
      .set(seller.auth)
      .send({ at_period_end: false })
      .expect(200);
    // Ended now: not at the period's end, whatever the first request asked; cancelled_at is this one's.
    expect(now.body.subscription).toMatchObject({ status: 'cancelled', cancel_at_period_end: false });
    expect(new Date(now.body.subscription.cancelled_at).getTime()).toBe(end.getTime() - 6 * HOUR);
    const ended = (await t.http.get(`/pay/order/${s.orderNumber}?transaction_id=${s.transactionId}`).expect(200)).text;
    expect(ended).toMatch(/Ended on<\/span><span>[^<]*<\/span>/);
    expect(ended).not.toContain('Renews on');
    const [payload] = await delivered('subscription_cancelled', renewal);
    expect(payload.plan_subscriber.status).toBe('cancelled');
    // The sweep at end_date finds nothing left to do.
    expect((await sweepFor(t, s.subscriptionId, end)).cancelled).toEqual([]);
    expect(ofSubscription(events, s.subscriptionId).filter((e) => e === 'subscription.cancelled')).toHaveLength(1);

    const other = await subscribe(t, seller, { at: new Date('2033-02-02T00:00:00.000Z') });
    t.clock.set(new Date('2033-02-05T00:00:00.000Z'));
    const atOnce = await t.http
      .post(`/v1/subscriptions/${other.subscriptionId}/cancel`)
      .set(seller.auth)
      .set('Idempotency-Key', 'cancel-1')
      .send({ at_period_end: false })
      .expect(200);
    expect(atOnce.body.subscription).toMatchObject({
      status: 'cancelled',
      cancel_at_period_end: false,
      cancelled_at: '2033-02-05T00:00:00.000000Z',
    });
    const replay = await t.http
      .post(`/v1/subscriptions/${other.subscriptionId}/cancel`)
      .set(seller.auth)
      .set('Idempotency-Key', 'cancel-1')
      .send({ at_period_end: false })
      .expect(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect((await delivered('subscription_cancelled', other.orderNumber))[0].plan_subscriber.cancelled_at).toBe(
      '2033-02-05T00:00:00.000000Z',
    );
    const portal = (
      await t.http.get(`/pay/order/${other.orderNumber}?transaction_id=${other.transactionId}`).expect(200)
    ).text;
    expect(portal).toContain('Ended on</span><span>2033-02-05');
    expect(portal).not.toContain('Cancel subscription');
  });

  it('refund of a renewal order cancels the subscription at once', async () => {
    const s = await subscribe(t, seller, { at: new Date('2034-09-09T09:00:00.000Z') });
    const end = new Date(s.subscription.end_date);
    const report = await sweepFor(t, s.subscriptionId, new Date(end.getTime() - 1 * HOUR));
    expect(report.attempts).toEqual([expect.objectContaining({ outcome: 'approved' })]);
    const renewal = report.renewal_orders[0].order_number;
    const paid = await getOrder(t, seller, renewal);
    t.clock.set(new Date(end.getTime() + 3 * DAY));
    const refunded = await t.http.post(`/v1/orders/${renewal}/refund`).set(seller.auth).expect(200);
    expect(refunded.body.order).toMatchObject({
      status: 'refunded',
      subscription: { id: s.subscriptionId, status: 'cancelled' },
    });
    const sub = await getSubscription(t, seller, s.subscriptionId);
    expect(sub).toMatchObject({ status: 'cancelled', cancel_at_period_end: false, orders: [s.orderNumber, renewal] });
    const [payload] = await delivered('subscription_cancelled', renewal);
    expectPayload(payload, s, {
      kind: 'subscription_cancelled',
      orderNumber: renewal,
      status: 'refunded',
      subscriptionStatus: 'cancelled',
      amount: 300,
      transactionId: paid.transaction_id,
      cancelledAt: true,
      paymentNumber: '841230001',
    });
    expect(ofSubscription(events, s.subscriptionId)).toEqual(['subscription.cancelled']);
    // The plan's subscribers are its orders ever approved: the refunded renewal too, newest first.
    const subscribers = (await t.http.get(`/v1/plans/${s.plan.planId}/subscribers`).set(seller.auth).expect(200)).body;
    expect(subscribers.subscribers.map((x: any) => [x.order_number, x.status])).toEqual([
      [renewal, 'refunded'],
      [s.orderNumber, 'approved'],
    ]);
  });

  it('GET /v1/subscriptions: filters, pagination, one subscription with its orders', async () => {
    const a = await subscribe(t, seller, { at: new Date('2030-01-01T00:00:00.000Z'), email: 'filter-a@example.com' });
    const listed = await t.http.get(`/v1/subscriptions?plan=${a.plan.planId}`).set(seller.auth).expect(200);
    expect(listed.body).toMatchObject({ status: 'success', page: 1, per_page: 15, last_page: 1, total: 1 });
    expect(listed.body.subscriptions).toEqual([
      {
        id: a.subscriptionId,
        status: 'active',
        plan: { plan_id: a.plan.planId, name: 'Mensal', price: 300, interval: 'month', interval_count: 1 },
        customer: {
          id: expect.any(Number),
          name: 'Ana Buyer',
          email: 'filter-a@example.com',
          mobile_number: '+258841234567',
        },
        start_date: '2030-01-01T00:00:00.000000Z',
        end_date: '2030-02-01T00:00:00.000000Z',
        cancelled_at: null,
        cancel_at_period_end: false,
        orders: [a.orderNumber],
        created_at: expect.stringMatching(TIMESTAMP),
        updated_at: expect.stringMatching(TIMESTAMP),
      },
    ]);
    const customerId = listed.body.subscriptions[0].customer.id;
    expect(
      (
        await t.http.get(`/v1/subscriptions?customer=${customerId}`).set(seller.auth).expect(200)
      ).body.subscriptions.map((x: any) => x.id),
    ).toEqual([a.subscriptionId]);
    const expired = (await t.http.get('/v1/subscriptions?status=expired&per_page=100').set(seller.auth).expect(200))
      .body.subscriptions;
    expect(expired.length).toBeGreaterThan(0);
    expect(expired.every((x: any) => x.status === 'expired')).toBe(true);
    const page = (await t.http.get('/v1/subscriptions?per_page=2&page=1').set(seller.auth).expect(200)).body;
    expect(page.subscriptions).toHaveLength(2);
    expect(page.last_page).toBe(Math.ceil(page.total / 2));
    expect((await t.http.get(`/v1/subscriptions/${a.subscriptionId}`).set(seller.auth).expect(200)).body).toEqual({
      status: 'success',
      subscription: listed.body.subscriptions[0],
    });
  });

  it('error paths: 401, 403, 404 for another store and bad ids, 422 on bad input; scopes listed', async () => {
    const s = await subscribe(t, seller, { at: new Date('2030-06-01T00:00:00.000Z') });
    await t.http.get('/v1/subscriptions').expect(401);
    await t.http.get(`/v1/subscriptions/${s.subscriptionId}`).set('Authorization', 'Bearer nope').expect(401);
    await t.http.post(`/v1/subscriptions/${s.subscriptionId}/cancel`).send({}).expect(401);

    const reader = await seller.tokenWith(['subscriptions.read']);
    const writer = await seller.tokenWith(['subscriptions.write']);
    const forbidden = await t.http.get('/v1/subscriptions').set('Authorization', `Bearer ${writer}`).expect(403);
    expect(forbidden.body).toMatchObject({
      message: 'Permission denied for this endpoint.',
      error_code: 'insufficient_scope',
      required_scopes: ['subscriptions.read'],
    });
    const noWrite = await t.http
      .post(`/v1/subscriptions/${s.subscriptionId}/cancel`)
      .set('Authorization', `Bearer ${reader}`)
      .send({})
      .expect(403);
    expect(noWrite.body.missing_scopes).toEqual(['subscriptions.write']);

    const stranger = await createSeller(t);
    for (const res of [
      await t.http.get(`/v1/subscriptions/${s.subscriptionId}`).set(stranger.auth),
      await t.http.post(`/v1/subscriptions/${s.subscriptionId}/cancel`).set(stranger.auth).send({}),
      await t.http.get('/v1/subscriptions/99999999999').set(seller.auth),
      await t.http.get('/v1/subscriptions/abc').set(seller.auth),
      await t.http.post('/v1/subscriptions/0/cancel').set(seller.auth).send({}),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ status: 'error', message: 'Resource not found.' });
    }
    expect((await t.http.get('/v1/subscriptions').set(stranger.auth).expect(200)).body).toMatchObject({
      total: 0,
      subscriptions: [],
    });
    expect((await getSubscription(t, seller, s.subscriptionId)).status).toBe('active');

    const badStatus = await t.http.get('/v1/subscriptions?status=paused').set(seller.auth).expect(422);
    expect(badStatus.body.errors).toEqual({ status: ['status must be one of: active, past_due, cancelled, expired.'] });
    expect((await t.http.get('/v1/subscriptions?per_page=0').set(seller.auth).expect(422)).body.errors).toHaveProperty(
      'per_page',
    );
    expect(
      (await t.http.get('/v1/subscriptions?customer=99999999999').set(seller.auth).expect(422)).body.errors,
    ).toHaveProperty('customer');
    const badFlag = await t.http
      .post(`/v1/subscriptions/${s.subscriptionId}/cancel`)
      .set(seller.auth)
      .send({ at_period_end: 'yes' })
      .expect(422);
    expect(badFlag.body).toEqual({
      status: 'error',
      message: 'Validation failed.',
      errors: { at_period_end: ['at_period_end must be a boolean.'] },
    });
    await t.http
      .post(`/v1/subscriptions/${s.subscriptionId}/cancel`)
      .set(seller.auth)
      .set('Content-Type', 'application/json')
      .send('{"at_period_end":')
      .expect(400);
    expect((await getSubscription(t, seller, s.subscriptionId)).cancel_at_period_end).toBe(false);

    const badHook = await t.http
      .post('/v1/webhooks')
      .set(seller.auth)
      .send({ url: receiver.url, events: ['subscription_renewed'] })
      .expect(422);
    expect(badHook.body.errors.events[0]).toContain('subscription_past_due');

    const scopes = (await t.http.get('/v1/scopes').set(seller.auth).expect(200)).body.scopes;
    expect(scopes.find((x: any) => x.scope === 'subscriptions.read').endpoints).toEqual([
      'GET /v1/subscriptions',
      'GET /v1/subscriptions/{id}',
    ]);
    expect(scopes.find((x: any) => x.scope === 'subscriptions.write').endpoints).toEqual([
      'POST /v1/subscriptions/{id}/cancel',
    ]);
  });
});
