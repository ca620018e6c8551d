import { createSeller, TestSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';
import { DAY } from '../subscriptions/helpers';
import { subscribe, sweepFor } from '../subscriptions/helpers';
import {
  createOrder,
  insertDiscount,
  insertProduct,
  orderBody,
  pathOf,
  payJson,
  recordEvents,
  usedCount,
} from './fixtures';

const DECLINED = { payment_method: 'mpesa', payment_number: '841110002' };
const PAYS = { payment_method: 'mpesa', payment_number: '841234567' };

/** "Try again" after a declined payment, and the buyer's pages that tell the truth. */
describe('try again after a decline; truthful portal and thank-you', () => {
  let t: TestApp;
  let seller: TestSeller;
  let product: { id: number; pid: string; name: string };

  beforeAll(async () => {
    t = await createTestApp();
    seller = await createSeller(t, { brand: 'Loja Aurora' });
    product = await insertProduct(t, seller.storeId, { name: 'Curso de Fotografia', price: '150.00' });
  });
  afterAll(() => t.close());

  const retryJson = (payToken: string) =>
    t.http.post(`/pay/token/${payToken}/retry`).set('Accept', 'application/json').send();
  const order = async (ref: string) => (await t.http.get(`/v1/orders/${ref}`).set(seller.auth).expect(200)).body.order;
  const portalPath = (o: { order_number: string; transaction_id: string }) =>
    `/pay/order/${o.order_number}?transaction_id=${encodeURIComponent(o.transaction_id)}`;

  it('reopens a declined order behind the same link, sends nothing, and it can be paid', async () => {
    const created = await createOrder(t, seller, orderBody(product.pid));
    await payJson(t, created.pay_token, DECLINED).expect(200);
    const page = await t.http.get(pathOf(created.checkout_url)).expect(200);
    expect(page.text).toContain('>Try again</button>');
    expect(page.text).toContain(`action="${created.checkout_url}/retry"`);

    const events = recordEvents(t);
    const res = await retryJson(created.pay_token).expect(200);
    expect(res.body).toEqual({ status: 'success', order_number: created.order_number, order_status: 'pending' });
    expect(events).toEqual([]);
    expect((await order(created.order_number)).status).toBe('pending');
    // Pressed again while pending: still pending, nothing changes.
    await retryJson(created.pay_token).expect(200);

    await payJson(t, created.pay_token, PAYS).expect(200);
    expect((await order(created.order_number)).status).toBe('approved');
    expect(events.map((e) => e.kind)).toEqual(['order_approved']);
  });

  it('a browser goes back to the checkout page (303), which offers the payment form again', async () => {
    const created = await createOrder(t, seller, orderBody(product.pid));
    await payJson(t, created.pay_token, DECLINED).expect(200);
    const res = await t.http.post(`/pay/token/${created.pay_token}/retry`).type('form').send({}).expect(303);
    expect(res.headers.location).toBe(created.checkout_url);
    const page = await t.http.get(pathOf(created.checkout_url)).expect(200);
    expect(page.text).toContain('>Pay now</button>');
    expect(page.text).not.toContain('Try again');
  });

  it('takes the coupon use again, as from_order does', async () => {
    const discountId = await insertDiscount(t, seller.storeId, { code: 'AGAIN5', type: 'fixed', value: '5.00' });
    const created = await createOrder(t, seller, orderBody(product.pid, { coupon_code: 'AGAIN5' }));
    expect(await usedCount(t, discountId)).toBe(1);
    await payJson(t, created.pay_token, DECLINED).expect(200);
    expect(await usedCount(t, discountId)).toBe(0);
    await retryJson(created.pay_token).expect(200);
    expect(await usedCount(t, discountId)).toBe(1);
  });

  it('a coupon with no use left: JSON says so on coupon_code; a browser gets the checkout saying it in words', async () => {
    await insertDiscount(t, seller.storeId, { code: 'LAST1', type: 'fixed', value: '5.00', usesLimit: 1 });
    const declined = await createOrder(t, seller, orderBody(product.pid, { coupon_code: 'LAST1' }));
    await payJson(t, declined.pay_token, DECLINED).expect(200);
    // Another buyer takes the last use meanwhile.
    await createOrder(t, seller, orderBody(product.pid, { coupon_code: 'LAST1' }));
    const json = await retryJson(declined.pay_token).expect(422);
    expect(json.body.errors).toEqual({ coupon_code: ['Coupon has no uses left.'] });
    const page = await t.http.post(`/pay/token/${declined.pay_token}/retry`).type('form').send({}).expect(422);
    expect(page.text).toContain(
      'data-testid="checkout-notice">The coupon of this order (LAST1) can no longer be used: Coupon has no uses left. Ask the seller for a new checkout link.<',
    );
    expect(page.text).toContain('data-testid="brand">Loja Aurora<');
    expect((await order(declined.order_number)).status).toBe('cancelled');
  });

  it('409 for an order the customer cancelled, an approved or refunded one; 404 for an unknown token', async () => {
    const cancelled = await createOrder(t, seller, orderBody(product.pid));
    await t.http.post(`/pay/token/${cancelled.pay_token}/cancel`).set('Accept', 'application/json').expect(200);
    const page = await t.http.get(pathOf(cancelled.checkout_url)).expect(200);
    expect(page.text).not.toContain('Try again');
    expect((await retryJson(cancelled.pay_token).expect(409)).body).toEqual({
      status: 'error',
      message: 'Order is no longer pending.',
    });
    // The HTML answer is the page showing the order's state.
    const html = await t.http.post(`/pay/token/${cancelled.pay_token}/retry`).type('form').send({}).expect(409);
    expect(html.text).toContain('data-testid="order-state"');

    const approved = await createOrder(t, seller, orderBody(product.pid));
    await payJson(t, approved.pay_token, PAYS).expect(200);
    await retryJson(approved.pay_token).expect(409);
    await t.http.post(`/v1/orders/${approved.order_number}/refund`).set(seller.auth).expect(200);
    await retryJson(approved.pay_token).expect(409);
    expect((await order(approved.order_number)).status).toBe('refunded');

    await retryJson('nope-unknown-token').expect(404);
  });

  it('a renewal whose subscription ended is not reopened', async () => {
    const start = new Date('2027-03-01T10:00:00Z');
    const s = await subscribe(t, seller, { at: start, paymentNumber: '841230003' });
    const end = new Date(s.subscription.end_date);
    const due = await sweepFor(t, s.subscriptionId, new Date(end.getTime() - 71 * 3_600_000));
    const renewalNumber = due.renewal_orders[0].order_number;
    const link = await t.http
      .post(`/pay/order/${s.orderNumber}/subscription/renewal`)
      .set('Accept', 'application/json')
      .send({ transaction_id: s.transactionId })
      .expect(200);
    const payToken = (link.body.checkout_url as string).split('/token/')[1];
    // The renewal checkout says what it is.
    const page = await t.http.get(pathOf(link.body.checkout_url)).expect(200);
    expect(page.text).toContain('data-testid="renewal">Renewal of your subscription to the Mensal plan<');
    // A declined renewal stays pending (billing README, `subscriptions/`): nothing to reopen, nothing changes.
    await payJson(t, payToken, DECLINED).expect(200);
    await retryJson(payToken).expect(200);
    await sweepFor(t, s.subscriptionId, new Date(end.getTime() + 8 * DAY));
    expect((await order(renewalNumber)).status).toBe('cancelled');
    await retryJson(payToken).expect(409);
    expect((await order(renewalNumber)).status).toBe('cancelled');
  });

  it('a portal transaction_id that cannot exist (U+0000) is the 404 of a wrong one; another field’s is a 422 naming it', async () => {
    const paid = await createOrder(t, seller, orderBody(product.pid));
    await payJson(t, paid.pay_token, PAYS).expect(200);
    const path = `/pay/order/${paid.order_number}`;
    const wrong = await t.http.get(`${path}?transaction_id=%00`).set('Accept', 'application/json').expect(404);
    expect(wrong.body).toEqual({ status: 'error', message: 'Resource not found.' });
    await t.http.get(`${path}?transaction_id=%00`).expect(404);
    const thanks = await t.http
      .get(`${portalPath(await order(paid.order_number))}&thanks=%00`)
      .set('Accept', 'application/json')
      .expect(422);
    expect(thanks.body.errors).toEqual({ thanks: ['thanks must not contain U+0000 or unpaired surrogates.'] });
  });

  it('a one-time order’s portal has no subscription to cancel or renew: 404, nothing answered as done', async () => {
    const paid = await createOrder(t, seller, orderBody(product.pid));
    await payJson(t, paid.pay_token, PAYS).expect(200);
    const { transaction_id } = await order(paid.order_number);
    for (const action of ['cancel', 'renewal']) {
      const res = await t.http
        .post(`/pay/order/${paid.order_number}/subscription/${action}`)
        .set('Accept', 'application/json')
        .send({ transaction_id, confirm: 'yes' })
        .expect(404);
      expect(res.body).toEqual({ status: 'error', message: 'Subscription not found.' });
    }
  });

  it('the portal says "Paid" only for approved and refunded orders', async () => {
    const declined = await createOrder(t, seller, orderBody(product.pid));
    await payJson(t, declined.pay_token, DECLINED).expect(200);
    const cancelledOrder = await order(declined.order_number);
    const portal = await t.http.get(portalPath(cancelledOrder)).expect(200);
    expect(portal.text).toMatch(/data-testid="order-amount"><span>Total \(not paid\)<\/span><span>150\.00 MZN/);
    expect(portal.text).not.toMatch(/>Paid</);

    const paid = await createOrder(t, seller, orderBody(product.pid));
    await payJson(t, paid.pay_token, PAYS).expect(200);
    const paidPortal = await t.http.get(portalPath(await order(paid.order_number))).expect(200);
    expect(paidPortal.text).toMatch(/data-testid="order-amount"><span>Paid<\/span><span>150\.00 MZN/);
  });

  it('after paying in a browser: the thank-you names the product and the masked receipt address', async () => {
    const created = await createOrder(
      t,
      seller,
      orderBody(product.pid, {
        customer: { name: 'Ana Silva', email: 'ana.silva@example.com', mobile_number: '+258841234567' },
      }),
    );
    const res = await t.http.post(`/pay/token/${created.pay_token}/pay`).type('form').send(PAYS).expect(303);
    expect(res.headers.location).toMatch(/\/pay\/order\/ORD-\w+\?transaction_id=[^&]+&thanks=1$/);
    const page = await t.http.get(pathOf(res.headers.location)).expect(200);
    expect(page.text).toContain('data-testid="thank-you-product">Curso de Fotografia<');
    expect(page.text).toContain('A receipt was sent to <strong>a***@example.com</strong>.');
    // The same link for an order not paid shows no thank-you.
    const declined = await createOrder(t, seller, orderBody(product.pid));
    await payJson(t, declined.pay_token, DECLINED).expect(200);
    const url = `${portalPath(await order(declined.order_number))}&thanks=1`;
    expect((await t.http.get(url).expect(200)).text).not.toContain('data-testid="thank-you"');
  });
});
