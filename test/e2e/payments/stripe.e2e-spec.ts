import Stripe from 'stripe';
import { PaymentReconciler } from '../../../src/modules/billing/payments/payment-reconciler';
import { createSeller, TestSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';
import { createOrder, insertProduct, orderBody, payJson, recordEvents } from '../billing/fixtures';
import { FakeStripe, FakeSession } from './fakes/stripe-fake';

jest.setTimeout(60_000);

describe('Stripe Checkout through the official SDK', () => {
  let t: TestApp;
  let seller: TestSeller;
  let fake: FakeStripe;
  let product: { id: number; pid: string };
  const stripe = new Stripe('sk_test_unused');

  beforeAll(async () => {
    fake = await new FakeStripe().start();
    t = await createTestApp({ env: { ...fake.env(), PAYMENT_RECONCILE_SECONDS: '3600' } });
    seller = await createSeller(t);
    product = await insertProduct(t, seller.storeId, { name: 'Curso de Fotografia', price: '150.00' });
  });
  afterAll(async () => {
    await t?.close();
    await fake?.stop();
  });

  const order = async (ref: string) => (await t.http.get(`/v1/orders/${ref}`).set(seller.auth).expect(200)).body.order;
  const signed = (payload: string, secret = fake.webhookSecret) =>
    stripe.webhooks.generateTestHeaderString({ payload, secret });
  const webhook = (payload: string, signature: string) =>
    t.http
      .post('/v1/payments/stripe/callback')
      .set('Content-Type', 'application/json')
      .set('Stripe-Signature', signature)
      .send(payload);

  /** An order paid by card up to the Stripe page: its session. */
  async function atStripe(
    amount = 150.5,
  ): Promise<{ created: { order_number: string; pay_token: string }; session: FakeSession }> {
    const created = await createOrder(t, seller, orderBody(product.pid, { amount }));
    const res = await t.http
      .post(`/pay/token/${created.pay_token}/pay`)
      .type('form')
      .send({ payment_method: 'card' })
      .expect(303);
    const session = fake.sessionOf(created.order_number)!;
    expect(res.headers.location).toBe(session.url);
    return { created, session };
  }

  it('creates one Checkout Session per attempt: minor units, metadata.order_number, URLs on {pay_url}, the attempt as idempotency key', async () => {
    const { created, session } = await atStripe(150.5);
    const request = fake.requests.find(
      (r) =>
        r.path === '/v1/checkout/sessions' &&
        (r.body.metadata as Record<string, string>).order_number === created.order_number,
    )!;
    expect(request.body).toMatchObject({
      mode: 'payment',
      line_items: [
        {
          quantity: '1',
          price_data: { currency: 'mzn', unit_amount: '15050', product_data: { name: 'Curso de Fotografia' } },
        },
      ],
      metadata: { order_number: created.order_number },
      success_url: `${t.config.urls.pay}/token/${created.pay_token}/status`,
      cancel_url: `${t.config.urls.pay}/token/${created.pay_token}`,
    });
    expect(request.headers['idempotency-key']).toBe(session.client_reference_id);
    const o = await order(created.order_number);
    expect(o.status).toBe('pending');
    expect(o.payments).toEqual([expect.objectContaining({ method: 'card', provider: 'stripe', status: 'processing' })]);

    // Back on the checkout while the session is open: to the same Stripe page, not a second session.
    const again = await payJson(t, created.pay_token, { payment_method: 'card' }).expect(202);
    expect(again.body).toEqual({
      status: 'success',
      order_number: created.order_number,
      order_status: 'pending',
      payment_status: 'processing',
      redirect_url: session.url,
    });
    expect([...fake.sessions.values()].filter((s) => s.metadata.order_number === created.order_number)).toHaveLength(1);
    // Another method meanwhile is refused.
    const other = await payJson(t, created.pay_token, { payment_method: 'mpesa', payment_number: '841234567' }).expect(
      409,
    );
    expect(other.body.message).toBe('A payment is already in progress.');
  });

  it('checkout.session.completed and paid: approved with the PaymentIntent id, once; a replay changes nothing', async () => {
    const { created, session } = await atStripe();
    fake.complete(session);
    const events = recordEvents(t);
    const payload = fake.event('checkout.session.completed', session);
    const header = signed(payload);
    const res = await webhook(payload, header).expect(200);
    expect(res.body).toEqual({ status: 'success', order_number: created.order_number, order_status: 'approved' });
    const o = await order(created.order_number);
    expect(o).toMatchObject({
      status: 'approved',
      transaction_id: session.payment_intent,
      transaction: { payment_method: 'card' },
    });
    expect(o.payments[0]).toMatchObject({ status: 'succeeded', transaction_id: session.payment_intent });
    await webhook(payload, header).expect(200);
    expect(events.map((e) => e.kind)).toEqual(['order_approved']);

    const status = await t.http.get(`/pay/token/${created.pay_token}/status`).expect(303);
    expect(status.headers.location).toContain(
      `/order/${created.order_number}?transaction_id=${session.payment_intent}`,
    );
  });

  it('a tampered webhook is 400 and changes nothing', async () => {
    const { created, session } = await atStripe();
    fake.complete(session);
    const payload = fake.event('checkout.session.completed', session);
    const header = signed(payload);
    const tampered = payload.replace(session.payment_intent!, 'pi_attacker');
    expect((await webhook(tampered, header).expect(400)).body).toEqual({
      status: 'error',
      message: 'Invalid signature.',
    });
    await webhook(payload, signed(payload, 'whsec_wrong')).expect(400);
    await t.http.post('/v1/payments/stripe/callback').set('Content-Type', 'application/json').send(payload).expect(400);
    expect((await order(created.order_number)).status).toBe('pending');
  });

  it('checkout.session.expired: failed, order cancelled with order_cancelled', async () => {
    const { created, session } = await atStripe();
    session.status = 'expired';
    const events = recordEvents(t);
    const payload = fake.event('checkout.session.expired', session);
    await webhook(payload, signed(payload)).expect(200);
    const o = await order(created.order_number);
    expect(o.status).toBe('cancelled');
    expect(o.payments[0]).toMatchObject({ status: 'failed', error_code: 'expired' });
    expect(events.map((e) => e.kind)).toEqual(['order_cancelled']);
  });

  it('no webhook after 30 minutes: the session is looked up; refunds go to the PaymentIntent', async () => {
    const { created, session } = await atStripe();
    fake.complete(session);
    const reconciler = t.app.get(PaymentReconciler);
    await reconciler.runOnce();
    expect((await order(created.order_number)).status).toBe('pending');
    t.clock.advance(31 * 60_000);
    try {
      await reconciler.runOnce();
    } finally {
      t.clock.advance(-31 * 60_000);
    }
    expect((await order(created.order_number)).status).toBe('approved');
    expect(fake.requests.some((r) => r.method === 'GET' && r.path === `/v1/checkout/sessions/${session.id}`)).toBe(
      true,
    );

    fake.refuseRefunds = true;
    try {
      const refused = await t.http.post(`/v1/orders/${created.order_number}/refund`).set(seller.auth).expect(502);
      expect(refused.body).toEqual({
        status: 'error',
        message: 'Payment provider error.',
        provider_code: 'charge_already_refunded',
        provider_message: 'Charge has already been refunded.',
      });
    } finally {
      fake.refuseRefunds = false;
    }
    expect((await order(created.order_number)).status).toBe('approved');
    await t.http.post(`/v1/orders/${created.order_number}/refund`).set(seller.auth).expect(200);
    expect(fake.refunds.at(-1)!.payment_intent).toBe(session.payment_intent);
    expect((await order(created.order_number)).status).toBe('refunded');
  });

  it("a refund whose answers were all lost: 502 unknown, 409 meanwhile; reconciliation lists the PaymentIntent's refunds and records it once", async () => {
    const { created, session } = await atStripe();
    fake.complete(session);
    const completed = fake.event('checkout.session.completed', session);
    await webhook(completed, signed(completed)).expect(200);
    expect((await order(created.order_number)).status).toBe('approved');
    const events = recordEvents(t);
    fake.loseRefundAnswers = true;
    try {
      const lost = await t.http.post(`/v1/orders/${created.order_number}/refund`).set(seller.auth).expect(502);
      expect(lost.body).toMatchObject({ message: 'Payment provider error.', provider_code: 'unknown' });
      await t.http.post(`/v1/orders/${created.order_number}/refund`).set(seller.auth).expect(409);
    } finally {
      fake.loseRefundAnswers = false;
    }
    // The SDK's retry carried the same idempotency key: one refund at Stripe.
    const made = fake.refunds.filter((r) => r.payment_intent === session.payment_intent);
    expect(made).toHaveLength(1);
    const keys = fake.requests
      .filter(
        (r) => r.method === 'POST' && r.path === '/v1/refunds' && r.body.payment_intent === session.payment_intent,
      )
      .map((r) => r.headers['idempotency-key']);
    expect(keys.length).toBe(2);
    expect(new Set(keys).size).toBe(1);
    t.clock.advance(10 * 60_000);
    try {
      expect((await t.app.get(PaymentReconciler).runOnce()).refunds).toBe(1);
    } finally {
      t.clock.advance(-10 * 60_000);
    }
    expect(fake.requests.some((r) => r.method === 'GET' && r.path === '/v1/refunds')).toBe(true);
    expect((await order(created.order_number)).status).toBe('refunded');
    expect(events.map((e) => e.kind)).toEqual(['order_refund']);
    const [attempt] = await t.dataSource.query(
      'SELECT refund_reference FROM payment_attempts WHERE transaction_id = $1',
      [session.payment_intent],
    );
    expect(attempt.refund_reference).toBe(made[0].id);
    // Found by the request's own reference, which the refund carries in its metadata.
    expect(made[0].metadata.request_reference).toMatch(/^[0-9A-Za-z]{20}$/);
    expect(keys[0]).toBe(`refund-${made[0].metadata.request_reference}`);
  });

  it('a refund whose answer was lost and never made: reconciliation finds none of its request and frees it', async () => {
    const { created, session } = await atStripe();
    fake.complete(session);
    const completed = fake.event('checkout.session.completed', session);
    await webhook(completed, signed(completed)).expect(200);
    // A refund the seller made in Stripe's dashboard is not this request's.
    fake.refunds.push({
      id: 're_dashboard',
      object: 'refund',
      status: 'succeeded',
      payment_intent: session.payment_intent!,
      metadata: {},
    });
    // What a refund request that never reached Stripe leaves behind: the claim, eleven minutes old.
    await t.dataSource.query(
      `UPDATE payment_attempts SET refund_started_at = $2, refund_request_reference = 'reqNeverSent'
        WHERE transaction_id = $1`,
      [session.payment_intent, new Date(t.clock.now().getTime() - 11 * 60_000)],
    );
    await t.http.post(`/v1/orders/${created.order_number}/refund`).set(seller.auth).expect(409);
    expect((await t.app.get(PaymentReconciler).runOnce()).refunds).toBe(1);
    expect((await order(created.order_number)).status).toBe('approved');
    await t.http.post(`/v1/orders/${created.order_number}/refund`).set(seller.auth).expect(200);
    expect((await order(created.order_number)).status).toBe('refunded');
  });

  it('the checkout offers card next to the sandbox methods, with the test notice', async () => {
    const created = await createOrder(t, seller, orderBody(product.pid));
    const page = await t.http.get(`/pay/token/${created.pay_token}`).expect(200);
    expect(page.text).toContain('Test payment: no money moves');
    for (const method of ['mpesa', 'emola', 'card']) expect(page.text).toContain(`value="${method}"`);
    expect(page.text).not.toMatch(/<input id="payment_number"[^>]* required/);
  });
});
