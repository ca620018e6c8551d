import { PaymentReconciler } from '../../../src/modules/billing/payments/payment-reconciler';
import { createSeller, TestSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';
import { createOrder, insertProduct, orderBody, payJson, recordEvents } from '../billing/fixtures';
import { C2B_PATH, FakeMpesa, QUERY_PATH, REVERSAL_PATH } from './fakes/mpesa-fake';

jest.setTimeout(60_000);

describe('M-Pesa (Vodacom Mozambique OpenAPI) through payment attempts', () => {
  let t: TestApp;
  let seller: TestSeller;
  let fake: FakeMpesa;
  let product: { id: number; pid: string };

  beforeAll(async () => {
    fake = await new FakeMpesa().start();
    t = await createTestApp({
      env: {
        ...fake.env(),
        PAYMENT_SANDBOX: 'false',
        // The 120 s limit, shortened: "no answer" is the same path whatever the limit.
        MPESA_TIMEOUT_MS: '1500',
        // Rounds are run by the tests (runOnce), not by the timer.
        PAYMENT_RECONCILE_SECONDS: '3600',
      },
    });
    seller = await createSeller(t);
    product = await insertProduct(t, seller.storeId, { name: 'Curso', price: '150.00' });
  });
  afterAll(async () => {
    await t?.close();
    await fake?.stop();
  });
  afterEach(() => expect(fake.violations).toEqual([]));

  const order = async (ref: string) => (await t.http.get(`/v1/orders/${ref}`).set(seller.auth).expect(200)).body.order;
  const reconcile = () => t.app.get(PaymentReconciler).runOnce();
  const newOrder = () => createOrder(t, seller, orderBody(product.pid, { amount: 150 }));

  it('INS-0: approved with output_TransactionID; the request carries the encrypted key, Origin and every input_ field', async () => {
    const created = await newOrder();
    const events = recordEvents(t);
    const res = await payJson(t, created.pay_token, {
      payment_method: 'mpesa',
      payment_number: '+258 84 123 4567',
    }).expect(200);
    expect(res.body).toEqual({ status: 'success', order_number: created.order_number, order_status: 'approved' });

    const [c2b] = fake.c2bRequests().filter((r) => r.fields.input_TransactionReference === created.order_number);
    expect(c2b.apiKey).toBe(fake.apiKey);
    expect(c2b.headers.origin).toBe('developer.mpesa.vm.co.mz');
    expect(c2b.fields).toEqual({
      input_TransactionReference: created.order_number,
      input_CustomerMSISDN: '258841234567',
      input_Amount: '150',
      input_ThirdPartyReference: expect.stringMatching(/^[A-Za-z0-9]{20}$/),
      input_ServiceProviderCode: '171717',
    });
    const tx = fake.transactionOf(created.order_number)!;
    const paid = await order(created.order_number);
    expect(paid).toMatchObject({
      status: 'approved',
      transaction_id: tx.transactionId,
      transaction: { payment_method: 'mpesa' },
    });
    expect(paid.payments).toEqual([
      {
        method: 'mpesa',
        provider: 'mpesa',
        status: 'succeeded',
        transaction_id: tx.transactionId,
        error_code: null,
        error_message: null,
        created_at: expect.any(String),
      },
    ]);
    expect(events.map((e) => e.kind)).toEqual(['order_approved']);
    expect(events[0].payload.transaction_id).toBe(tx.transactionId);
    // The API key itself never travels in clear, and a new encryption is made per call.
    expect(c2b.headers.authorization).not.toContain(fake.apiKey);
  });

  it.each([
    ['cancelled by the customer', 'cancelled' as const, 'INS-5', 'Transaction cancelled by customer'],
    ['insufficient balance', 'insufficient' as const, 'INS-2006', 'Insufficient balance'],
  ])('%s: failed with the INS code, order cancelled with order_cancelled', async (_name, kind, code, message) => {
    const number = kind === 'cancelled' ? '841000005' : '841002006';
    fake.on(number, { kind });
    const created = await newOrder();
    const events = recordEvents(t);
    const res = await payJson(t, created.pay_token, { payment_method: 'mpesa', payment_number: number }).expect(200);
    expect(res.body.order_status).toBe('cancelled');
    const o = await order(created.order_number);
    expect(o.status).toBe('cancelled');
    expect(o.transaction_id).toEqual(expect.any(String));
    // Vodacom gives a decline no transaction id: the attempt has the one it gave the order.
    expect(o.payments).toEqual([
      expect.objectContaining({
        status: 'failed',
        error_code: code,
        error_message: message,
        transaction_id: o.transaction_id,
      }),
    ]);
    expect(events.map((e) => e.kind)).toEqual(['order_cancelled']);
  });

  it('INS-9: unknown, 202 to JSON; reconciliation queries by the third-party reference and approves once', async () => {
    fake.on('841000009', { kind: 'ins9', finalStatus: 'Pending' });
    const created = await newOrder();
    const events = recordEvents(t);
    const res = await payJson(t, created.pay_token, { payment_method: 'mpesa', payment_number: '841000009' }).expect(
      202,
    );
    expect(res.body).toEqual({
      status: 'success',
      order_number: created.order_number,
      order_status: 'pending',
      payment_status: 'unknown',
    });
    expect((await order(created.order_number)).payments[0]).toMatchObject({ status: 'unknown', error_code: 'INS-9' });

    // Still pending at Vodacom: nothing changes.
    await reconcile();
    expect((await order(created.order_number)).status).toBe('pending');
    const tx = fake.transactionOf(created.order_number)!;
    const query = fake.requests.filter((r) => r.path === QUERY_PATH).at(-1)!;
    expect(query.fields).toEqual({
      input_QueryReference: tx.thirdPartyReference,
      input_ThirdPartyReference: expect.stringMatching(/^[A-Za-z0-9]+$/),
      input_ServiceProviderCode: '171717',
    });
    expect(query.apiKey).toBe(fake.apiKey);

    tx.status = 'Completed';
    await reconcile();
    await reconcile();
    const o = await order(created.order_number);
    expect(o.status).toBe('approved');
    expect(o.payments[0]).toMatchObject({ status: 'succeeded' });
    expect(events.map((e) => e.kind)).toEqual(['order_approved']);
    const status = await t.http
      .get(`/pay/token/${created.pay_token}/status`)
      .set('Accept', 'application/json')
      .expect(200);
    expect(status.body).toEqual({
      status: 'success',
      order_number: created.order_number,
      order_status: 'approved',
      payment_status: 'succeeded',
    });
  });

  it('no answer within the limit: unknown (timeout); a query saying Cancelled fails it and cancels the order', async () => {
    fake.on('841000130', { kind: 'silent', finalStatus: 'Cancelled' });
    const created = await newOrder();
    const res = await payJson(t, created.pay_token, { payment_method: 'mpesa', payment_number: '841000130' }).expect(
      202,
    );
    expect(res.body.payment_status).toBe('unknown');
    expect((await order(created.order_number)).payments[0]).toMatchObject({ status: 'unknown', error_code: 'timeout' });
    const events = recordEvents(t);
    await reconcile();
    const o = await order(created.order_number);
    expect(o.status).toBe('cancelled');
    expect(o.payments[0]).toMatchObject({
      status: 'failed',
      error_code: 'status_cancelled',
      transaction_id: o.transaction_id,
    });
    expect(events.map((e) => e.kind)).toEqual(['order_cancelled']);
  });

  it('a connection lost after sending is unknown too; an hour without confirmation fails it as unconfirmed', async () => {
    fake.on('841000404', { kind: 'drop', finalStatus: 'Pending' });
    const created = await newOrder();
    await payJson(t, created.pay_token, { payment_method: 'mpesa', payment_number: '841000404' }).expect(202);
    expect((await order(created.order_number)).payments[0]).toMatchObject({
      status: 'unknown',
      error_code: 'connection_lost',
    });
    t.clock.advance(61 * 60_000);
    try {
      await reconcile();
    } finally {
      t.clock.advance(-61 * 60_000);
    }
    const o = await order(created.order_number);
    expect(o.status).toBe('cancelled');
    expect(o.payments[0]).toMatchObject({
      status: 'failed',
      error_code: 'unconfirmed',
      transaction_id: o.transaction_id,
    });
  });

  it('two pays racing: one attempt, one charge; the other is 409 A payment is already in progress.', async () => {
    fake.on('841000222', { kind: 'success', delayMs: 800 });
    const created = await newOrder();
    const events = recordEvents(t);
    const before = fake.c2bRequests().length;
    const results = await Promise.all(
      [0, 1].map(() => payJson(t, created.pay_token, { payment_method: 'mpesa', payment_number: '841000222' })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.status === 409)!.body).toEqual({
      status: 'error',
      message: 'A payment is already in progress.',
    });
    expect(fake.c2bRequests().length - before).toBe(1);
    expect((await order(created.order_number)).payments).toHaveLength(1);
    expect(events).toHaveLength(1);
  });

  it('a pay racing a reconciliation: the first outcome wins, the other changes and sends nothing', async () => {
    // The customer confirms at once, but the answer takes 1 s to come back; meanwhile a
    // reconciliation round (its clock past the attempt's limit) finds the payment Completed.
    fake.on('841000333', { kind: 'success', delayMs: 1000 });
    const created = await newOrder();
    const events = recordEvents(t);
    // supertest sends on then(): start it now.
    const paying = payJson(t, created.pay_token, { payment_method: 'mpesa', payment_number: '841000333' }).then(
      (r) => r,
    );
    while (!fake.transactionOf(created.order_number)) await new Promise((r) => setTimeout(r, 20));
    t.clock.advance(5 * 60_000);
    try {
      const report = await reconcile();
      expect(report.settled).toBeGreaterThanOrEqual(1);
    } finally {
      t.clock.advance(-5 * 60_000);
    }
    expect((await order(created.order_number)).status).toBe('approved');
    const res = await paying;
    expect(res.status).toBe(200);
    expect(res.body.order_status).toBe('approved');
    const o = await order(created.order_number);
    expect(o.payments).toEqual([expect.objectContaining({ status: 'succeeded' })]);
    expect(events.map((e) => e.kind)).toEqual(['order_approved']);
  });

  it('refund accepted: a reversal of output_TransactionID for the full amount, then refunded and order_refund', async () => {
    const created = await newOrder();
    await payJson(t, created.pay_token, { payment_method: 'mpesa', payment_number: '841234568' }).expect(200);
    const tx = fake.transactionOf(created.order_number)!;
    const events = recordEvents(t);
    const res = await t.http.post(`/v1/orders/${created.order_number}/refund`).set(seller.auth).expect(200);
    expect(res.body.order.status).toBe('refunded');
    const reversal = fake.requests.filter((r) => r.path === REVERSAL_PATH).at(-1)!;
    expect(reversal.method).toBe('PUT');
    expect(reversal.fields).toEqual({
      input_TransactionID: tx.transactionId,
      input_SecurityCredential: fake.securityCredential,
      input_InitiatorIdentifier: fake.initiatorIdentifier,
      input_ThirdPartyReference: expect.stringMatching(/^[A-Za-z0-9]+$/),
      input_ServiceProviderCode: '171717',
      input_ReversalAmount: '150',
    });
    expect(tx.reversed).toBe(true);
    expect(events.map((e) => e.kind)).toEqual(['order_refund']);
    await t.http.post(`/v1/orders/${created.order_number}/refund`).set(seller.auth).expect(409);
  });

  it('refund refused: 502 Payment provider error. with the provider code, nothing changes', async () => {
    const created = await newOrder();
    await payJson(t, created.pay_token, { payment_method: 'mpesa', payment_number: '841234569' }).expect(200);
    const events = recordEvents(t);
    fake.refuseReversals = { code: 'INS-2001', description: 'Initiator authentication error' };
    try {
      const refused = await t.http.post(`/v1/orders/${created.order_number}/refund`).set(seller.auth).expect(502);
      expect(refused.body).toEqual({
        status: 'error',
        message: 'Payment provider error.',
        provider_code: 'INS-2001',
        provider_message: 'Initiator authentication error',
      });
    } finally {
      fake.refuseReversals = null;
    }
    expect((await order(created.order_number)).status).toBe('approved');
    expect(events).toEqual([]);
    // And once the gateway takes it, it goes through.
    await t.http.post(`/v1/orders/${created.order_number}/refund`).set(seller.auth).expect(200);
  });

  /** A refund whose answer was lost, then a reconciliation round ten minutes later. */
  async function refundLostThenReconciled(orderNumber: string) {
    const lost = await t.http.post(`/v1/orders/${orderNumber}/refund`).set(seller.auth).expect(502);
    expect(lost.body).toEqual({
      status: 'error',
      message: 'Payment provider error.',
      provider_code: 'unknown',
      provider_message: 'The payment provider did not answer; the refund is checked with it within minutes.',
    });
    // Claimed until the gateway is asked: a second refund never reverses the payment twice.
    const again = await t.http.post(`/v1/orders/${orderNumber}/refund`).set(seller.auth).expect(409);
    expect(again.body).toEqual({ status: 'error', message: 'A refund is already in progress.' });
    expect((await order(orderNumber)).status).toBe('approved');
    // Not asked while the answer may still come.
    expect((await reconcile()).refunds).toBe(0);
    t.clock.advance(10 * 60_000);
    try {
      return await reconcile();
    } finally {
      t.clock.advance(-10 * 60_000);
    }
  }

  it.each([
    ['INS-9', 'ins9', '841234572'],
    ["a proxy's 502 page", 'bad-gateway', '841234573'],
  ] as const)(
    'a reversal answered with %s is not a refusal: it stays claimed and reconciliation finds it made',
    async (_, answer, number) => {
      const created = await newOrder();
      await payJson(t, created.pay_token, { payment_method: 'mpesa', payment_number: number }).expect(200);
      const events = recordEvents(t);
      fake.ambiguousReversals = answer;
      let report;
      try {
        report = await refundLostThenReconciled(created.order_number);
      } finally {
        fake.ambiguousReversals = null;
      }
      expect(report.refunds).toBe(1);
      expect((await order(created.order_number)).status).toBe('refunded');
      expect(events.map((e) => e.kind)).toEqual(['order_refund']);
      expect(
        fake.requests.filter(
          (r) =>
            r.path === REVERSAL_PATH &&
            r.fields.input_TransactionID === fake.transactionOf(created.order_number)!.transactionId,
        ),
      ).toHaveLength(1);
    },
  );

  it('a reversal made whose answer was lost: 502 unknown and 409 meanwhile; reconciliation finds it by its reference and refunds the order once', async () => {
    const created = await newOrder();
    await payJson(t, created.pay_token, { payment_method: 'mpesa', payment_number: '841234570' }).expect(200);
    const tx = fake.transactionOf(created.order_number)!;
    const events = recordEvents(t);
    fake.loseReversalAnswers = true;
    let report;
    try {
      report = await refundLostThenReconciled(created.order_number);
    } finally {
      fake.loseReversalAnswers = false;
    }
    expect(report.refunds).toBe(1);
    const reversals = fake.requests.filter(
      (r) => r.path === REVERSAL_PATH && r.fields.input_TransactionID === tx.transactionId,
    );
    expect(reversals).toHaveLength(1);
    const reference = reversals[0].fields.input_ThirdPartyReference;
    const query = fake.requests.filter((r) => r.path === QUERY_PATH && r.fields.input_QueryReference === reference);
    expect(query).toHaveLength(1);
    expect((await order(created.order_number)).status).toBe('refunded');
    expect(events.map((e) => e.kind)).toEqual(['order_refund']);
    const [attempt] = await t.dataSource.query(
      'SELECT refund_reference FROM payment_attempts WHERE transaction_id = $1',
      [tx.transactionId],
    );
    // The query's answer carries the reversal's conversation id, not its transaction id.
    expect(attempt.refund_reference).toBe(fake.reversals.get(reference)!.conversationId);
    // Nothing left to reconcile, and the order stays refunded.
    t.clock.advance(10 * 60_000);
    try {
      expect((await reconcile()).refunds).toBe(0);
    } finally {
      t.clock.advance(-10 * 60_000);
    }
    await t.http.post(`/v1/orders/${created.order_number}/refund`).set(seller.auth).expect(409);
  });

  it('a reversal dropped before it was made: reconciliation finds none by its reference and frees the refund for the seller', async () => {
    const created = await newOrder();
    await payJson(t, created.pay_token, { payment_method: 'mpesa', payment_number: '841234571' }).expect(200);
    const tx = fake.transactionOf(created.order_number)!;
    const events = recordEvents(t);
    fake.dropReversals = true;
    let report;
    try {
      report = await refundLostThenReconciled(created.order_number);
    } finally {
      fake.dropReversals = false;
    }
    expect(report.refunds).toBe(1);
    expect(tx.reversed).toBe(false);
    expect((await order(created.order_number)).status).toBe('approved');
    expect(events).toEqual([]);
    // A new request, under a new reference, goes through.
    await t.http.post(`/v1/orders/${created.order_number}/refund`).set(seller.auth).expect(200);
    const references = fake.requests
      .filter((r) => r.path === REVERSAL_PATH && r.fields.input_TransactionID === tx.transactionId)
      .map((r) => r.fields.input_ThirdPartyReference);
    expect(references).toHaveLength(2);
    expect(new Set(references).size).toBe(2);
    expect(tx.reversed).toBe(true);
    expect(events.map((e) => e.kind)).toEqual(['order_refund']);
  });

  it('offers only mpesa (no sandbox): no test notice; another method or a foreign number is 422', async () => {
    const created = await newOrder();
    const page = await t.http.get(`/pay/token/${created.pay_token}`).expect(200);
    expect(page.text).not.toContain('Test payment');
    expect(page.text).toContain('value="mpesa"');
    expect(page.text).not.toContain('value="emola"');
    const emola = await payJson(t, created.pay_token, { payment_method: 'emola', payment_number: '861234567' }).expect(
      422,
    );
    expect(emola.body.errors).toEqual({ payment_method: ['payment_method must be one of: mpesa.'] });
    const foreign = await payJson(t, created.pay_token, {
      payment_method: 'mpesa',
      payment_number: '5511987654321',
    }).expect(422);
    expect(Object.keys(foreign.body.errors)).toEqual(['payment_number']);
    expect(fake.c2bRequests().some((r) => r.fields.input_TransactionReference === created.order_number)).toBe(false);
  });

  it('the waiting page: "Confirm the payment on your phone", polling the status route, moving on by itself', async () => {
    // An answer past the 5 s wait is covered by the browser test; here the outcome is unknown.
    const created = await newOrder();
    fake.on('841000601', { kind: 'ins9', finalStatus: 'Pending' });
    const res = await t.http
      .post(`/pay/token/${created.pay_token}/pay`)
      .type('form')
      .send({ payment_method: 'mpesa', payment_number: '841000601' })
      .expect(200);
    expect(res.text).toContain('Confirm the payment on your phone');
    expect(res.text).toContain(
      `http-equiv="refresh" content="3;url=${t.config.urls.pay}/token/${created.pay_token}/status"`,
    );
    // Nothing loaded from elsewhere: the page's one link is its icon, inline as a data: URI.
    expect(res.text).not.toMatch(/<link(?! rel="icon" type="image\/svg\+xml" href="data:)|<script|src="\/\//);
    const poll = await t.http.get(`/pay/token/${created.pay_token}/status`).expect(200);
    expect(poll.text).toContain('Confirm the payment on your phone');
    fake.transactionOf(created.order_number)!.status = 'Completed';
    await reconcile();
    const done = await t.http.get(`/pay/token/${created.pay_token}/status`).expect(303);
    const o = await order(created.order_number);
    expect(done.headers.location).toBe(
      `${t.config.urls.pay}/order/${created.order_number}?transaction_id=${o.transaction_id}&thanks=1`,
    );
  });
});

describe('M-Pesa paths and URLs', () => {
  it('defaults to Vodacom hosts and ports, and the test host through MPESA_API_HOST', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { loadConfig } = require('../../../src/config/app-config') as typeof import('../../../src/config/app-config');
    const base = {
      NODE_ENV: 'test',
      MPESA_API_KEY: 'k',
      MPESA_PUBLIC_KEY: 'QUJD',
      MPESA_SERVICE_PROVIDER_CODE: '171717',
    };
    expect(loadConfig(base).payments.mpesa!.urls).toEqual({
      c2b: `https://api.vm.co.mz:18352${C2B_PATH}`,
      query: `https://api.vm.co.mz:18353${QUERY_PATH}`,
      reversal: `https://api.vm.co.mz:18354${REVERSAL_PATH}`,
    });
    expect(loadConfig({ ...base, MPESA_API_HOST: 'api.sandbox.vm.co.mz' }).payments.mpesa!.urls.c2b).toBe(
      `https://api.sandbox.vm.co.mz:18352${C2B_PATH}`,
    );
    expect(() => loadConfig({ NODE_ENV: 'test', MPESA_API_KEY: 'k' })).toThrow(
      'MPESA_PUBLIC_KEY is required when MPESA_API_KEY is set',
    );
  });
});
