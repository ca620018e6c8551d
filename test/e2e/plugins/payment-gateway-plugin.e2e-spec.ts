import { createHmac } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import {
  type AttemptReference,
  type CallbackNotification,
  type ChargeRequest,
  definePlugin,
  type GatewayOutcome,
  type PaymentGateway,
  type RefundOutcome,
  type RefundRequest,
} from '../../../src/plugins';
import { customerBody, sellerApi } from '../../factories/api';
import { createSeller, TestSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';

const SECRET = 'voucher-callback-secret';

/**
 * A gateway of this test, added from outside core with `definePlugin({ paymentGateways })`: store
 * vouchers, method `voucher`. A code starting with 0 is spent (refused), with 9 is confirmed later by
 * the voucher service's signed callback, any other is accepted at once.
 */
class VoucherGateway implements PaymentGateway {
  readonly provider = 'voucher';
  readonly methods = ['voucher'];
  readonly needsPaymentNumber = true;
  readonly chargesOffSession = true;
  readonly lookupAfterMs = 60_000;
  readonly charges: ChargeRequest[] = [];
  readonly refunds: RefundRequest[] = [];

  validatePaymentNumber(code: string): string | null {
    return /^\d{8,15}$/.test(code) ? null : 'payment_number must be a voucher code of 8 to 15 digits.';
  }

  async charge(request: ChargeRequest): Promise<GatewayOutcome> {
    this.charges.push(request);
    const code = request.paymentNumber ?? '';
    if (code.startsWith('0'))
      return { status: 'failed', code: 'VOUCHER_SPENT', message: 'The voucher was already used.' };
    if (code.startsWith('9')) return { status: 'processing', gatewayReference: `vs-${request.reference}` };
    return { status: 'succeeded', transactionId: `VCH-${request.reference}` };
  }

  async lookup(_attempt: AttemptReference): Promise<GatewayOutcome> {
    return { status: 'unknown', code: 'NO_ANSWER', message: 'The voucher service did not say.' };
  }

  async refund(request: RefundRequest): Promise<RefundOutcome> {
    this.refunds.push(request);
    return { accepted: true, reference: `VR-${request.transactionId}` };
  }

  verifyCallback(rawBody: Buffer, headers: IncomingHttpHeaders): CallbackNotification | null {
    if (headers['x-voucher-signature'] !== sign(rawBody)) return null;
    const body = JSON.parse(rawBody.toString('utf8')) as {
      order_number: string;
      reference: string;
      transaction: string;
    };
    return {
      orderNumber: body.order_number,
      attemptReference: body.reference,
      outcome: { status: 'succeeded', transactionId: body.transaction },
    };
  }
}

const sign = (body: Buffer | string) => createHmac('sha256', SECRET).update(body).digest('hex');

describe('a payment gateway added by a plugin', () => {
  const gateway = new VoucherGateway();
  let t: TestApp;
  let seller: TestSeller;

  beforeAll(async () => {
    t = await createTestApp({ plugins: [definePlugin({ name: 'vouchers', paymentGateways: [gateway] })] });
    seller = await createSeller(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  async function checkout(email: string) {
    const api = sellerApi(t.http, seller.auth);
    const product = await api.product({ name: `Course for ${email}`, price: 120 });
    const order = await api.order({ amount: 120, product_pid: product.pid, customer: customerBody(email) });
    const path = new URL(order.checkout_url).pathname;
    const pay = (code: string) =>
      t.http
        .post(`${path}/pay`)
        .set('Accept', 'application/json')
        .send({ payment_method: 'voucher', payment_number: code });
    const read = () => api.getOrder(order.order_number);
    return { api, order, path, pay, read };
  }

  it('is offered at the checkout beside the core methods', async () => {
    const { path } = await checkout('offer@example.com');
    const page = await t.http.get(path).expect(200);
    expect(page.text).toContain('value="voucher"');
  });

  it("checks the code with the gateway's own rule (422 on payment_number), charging nothing", async () => {
    const { pay, read } = await checkout('bad-code@example.com');
    const before = gateway.charges.length;
    const res = await pay('12-34').expect(422);
    expect(res.body.errors.payment_number).toEqual(['payment_number must be a voucher code of 8 to 15 digits.']);
    expect(gateway.charges.length).toBe(before);
    expect((await read()).status).toBe('pending');
  });

  it('approves the order through core, records the attempt under its provider, and refunds through it', async () => {
    const { api, order, pay, read } = await checkout('paid@example.com');
    const res = await pay('12345678').expect(200);
    expect(res.body).toMatchObject({ status: 'success', order_number: order.order_number, order_status: 'approved' });

    const charge = gateway.charges.at(-1)!;
    expect(charge).toMatchObject({
      orderNumber: order.order_number,
      amount: 12000,
      currency: 'MZN',
      method: 'voucher',
    });
    const shown = await read();
    expect(shown.status).toBe('approved');
    expect(shown.transaction_id).toBe(`VCH-${charge.reference}`);
    expect(shown.payments).toEqual([
      expect.objectContaining({ method: 'voucher', provider: 'voucher', status: 'succeeded' }),
    ]);

    const refunded = await api.refund(order.order_number);
    expect(refunded.status).toBe('refunded');
    // The payment stays as it happened (succeeded); the order says it was given back.
    expect(refunded.payments).toEqual([expect.objectContaining({ provider: 'voucher', status: 'succeeded' })]);
    expect(gateway.refunds.map((r) => r.transactionId)).toEqual([`VCH-${charge.reference}`]);
  });

  it("records the gateway's refusal in its words, and the order is cancelled", async () => {
    const { pay, read } = await checkout('spent@example.com');
    const refused = await pay('01234567');
    expect(refused.body.order_status).toBe('cancelled');
    const payments = (await read()).payments as Array<Record<string, unknown>>;
    expect(payments[0]).toMatchObject({ provider: 'voucher', status: 'failed', error_code: 'VOUCHER_SPENT' });
  });

  it('waits for a pending voucher, then its signed callback approves the order once; a forged one changes nothing', async () => {
    const { order, pay, read } = await checkout('later@example.com');
    const waiting = await pay('98765432').expect(202);
    expect(waiting.body.order_status).toBe('pending');
    const reference = gateway.charges.at(-1)!.reference;
    const body = JSON.stringify({ order_number: order.order_number, reference, transaction: 'VCH-LATE-1' });

    await t.http
      .post('/v1/payments/voucher/callback')
      .set('Content-Type', 'application/json')
      .set('X-Voucher-Signature', sign(`${body} `))
      .send(body)
      .expect(401);
    expect((await read()).status).toBe('pending');

    const shownAfter: Array<Record<string, any>> = [];
    for (let i = 0; i < 2; i++) {
      const res = await t.http
        .post('/v1/payments/voucher/callback')
        .set('Content-Type', 'application/json')
        .set('X-Voucher-Signature', sign(body))
        .send(body)
        .expect(200);
      expect(res.body).toEqual({ status: 'success', order_number: order.order_number, order_status: 'approved' });
      shownAfter.push(await read());
    }
    // The replay changed nothing: same approval, one attempt, succeeded once.
    expect(shownAfter[0].transaction_id).toBe('VCH-LATE-1');
    expect(shownAfter[1]).toEqual(shownAfter[0]);
    expect(shownAfter[1].payments).toEqual([expect.objectContaining({ provider: 'voucher', status: 'succeeded' })]);
  });
});
