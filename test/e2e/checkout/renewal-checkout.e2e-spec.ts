import { createSeller, TestSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';
import { createOrder, insertPlan, insertProduct, orderBody, pathOf, payJson, recordEvents } from '../billing/fixtures';
import { getOrder, HOUR, subscribe, Subscribed, sweepFor } from '../subscriptions/helpers';

const PAYS = { payment_method: 'mpesa', payment_number: '841234567' };
const RENEWAL_STAYS_OPEN = 'A renewal stays open until its subscription ends; cancel the subscription instead.';

/**
 * The checkout of a subscription's orders (billing README, `checkout/`): only a renewal says it is
 * one, and its cancel button is not offered (a renewal stays pending until its subscription ends).
 */
describe('the checkout of a subscription: first order and renewals', () => {
  let t: TestApp;
  let seller: TestSeller;

  beforeAll(async () => {
    t = await createTestApp();
    seller = await createSeller(t, { brand: 'Loja Aurora' });
  });
  afterAll(() => t.close());

  /** A paid subscription whose renewal is open (its automatic charge of …0003 declined), and that renewal's link. */
  async function openRenewal(at: string): Promise<{ s: Subscribed; payToken: string; renewalNumber: string }> {
    const s = await subscribe(t, seller, { at: new Date(at), paymentNumber: '841230003' });
    const end = new Date(s.subscription.end_date);
    const due = await sweepFor(t, s.subscriptionId, new Date(end.getTime() - 71 * HOUR));
    const link = await t.http
      .post(`/pay/order/${s.orderNumber}/subscription/renewal`)
      .set('Accept', 'application/json')
      .send({ transaction_id: s.transactionId })
      .expect(200);
    return {
      s,
      payToken: (link.body.checkout_url as string).split('/token/')[1],
      renewalNumber: due.renewal_orders[0].order_number,
    };
  }

  const checkoutPage = (payToken: string) => t.http.get(`/pay/token/${payToken}`).expect(200);
  const portalOf = (s: Subscribed) =>
    `${t.config.urls.pay}/order/${s.orderNumber}?transaction_id=${encodeURIComponent(s.transactionId)}`;

  it('the order that started a subscription is not called a renewal, before or after it is paid', async () => {
    const club = await insertProduct(t, seller.storeId, { name: 'Clube do Livro', type: 'recurring', price: null });
    const plan = await insertPlan(t, seller.storeId, club.id, { name: 'Mensal', price: '300.00' });
    const created = await createOrder(t, seller, orderBody(club.pid, { amount: 300, plan_id: plan.planId }));
    expect((await t.http.get(pathOf(created.checkout_url)).expect(200)).text).not.toContain('data-testid="renewal"');
    await payJson(t, created.pay_token, PAYS).expect(200);
    // Approval gave the order its subscription: its page, opened again, still tells it from a renewal.
    expect((await getOrder(t, seller, created.order_number)).subscription).toMatchObject({ status: 'active' });
    const again = await t.http.get(pathOf(created.checkout_url)).expect(200);
    expect(again.text).toContain('data-testid="order-state"');
    expect(again.text).toContain('data-testid="plan">Mensal');
    expect(again.text).not.toContain('data-testid="renewal"');
    expect(again.text).not.toContain('Renewal of your subscription');

    // A renewal of the same kind of subscription does say so, and of which plan.
    const { payToken } = await openRenewal('2027-01-06T10:00:00Z');
    expect((await checkoutPage(payToken)).text).toContain(
      'data-testid="renewal">Renewal of your subscription to the Mensal plan<',
    );
  });

  it('a renewal checkout offers no cancel button, only the way to its subscription', async () => {
    const { s, payToken } = await openRenewal('2027-02-03T10:00:00Z');
    const page = await checkoutPage(payToken);
    expect(page.text).toContain('Pay now');
    expect(page.text).not.toContain(`/token/${payToken}/cancel"`);
    expect(page.text).toContain(`data-testid="subscription-link">`);
    expect(page.text).toContain(`href="${portalOf(s).replace(/&/g, '&amp;')}"`);
    // The order that starts a subscription keeps its cancel button: nothing is open until it is paid.
    const first = await createOrder(t, seller, orderBody(s.product.pid, { amount: 300, plan_id: s.plan.planId }));
    expect((await t.http.get(pathOf(first.checkout_url)).expect(200)).text).toContain(
      `/token/${first.pay_token}/cancel"`,
    );
  });

  it('POST cancel of a pending renewal is a 409 that changes nothing; the renewal can still be paid', async () => {
    const { s, payToken, renewalNumber } = await openRenewal('2027-03-03T10:00:00Z');
    const events = recordEvents(t);

    const json = await t.http.post(`/pay/token/${payToken}/cancel`).set('Accept', 'application/json').expect(409);
    expect(json.body).toEqual({ status: 'error', message: RENEWAL_STAYS_OPEN });
    const html = await t.http.post(`/pay/token/${payToken}/cancel`).expect(409);
    expect(html.headers['content-type']).toMatch(/text\/html/);
    // The renewal's checkout page, saying why, with its form still there.
    expect(html.text).toContain(`data-testid="checkout-notice">${RENEWAL_STAYS_OPEN}<`);
    expect(html.text).toContain('data-testid="renewal"');
    expect(html.text).toContain('Pay now');

    const renewal = await getOrder(t, seller, renewalNumber);
    expect(renewal.status).toBe('pending');
    expect((await getOrder(t, seller, s.orderNumber)).subscription.status).toBe('active');
    expect(events).toEqual([]);

    await payJson(t, payToken, PAYS).expect(200);
    expect((await getOrder(t, seller, renewalNumber)).status).toBe('approved');
    // Paid: the cancel button of a renewal that is no longer pending answers as any other order's.
    const paid = await t.http.post(`/pay/token/${payToken}/cancel`).set('Accept', 'application/json').expect(409);
    expect(paid.body.message).toBe('Order is no longer pending.');
  });

  it('a renewal is cancelled with its subscription, from the portal the checkout links to', async () => {
    const { s, payToken, renewalNumber } = await openRenewal('2027-04-03T10:00:00Z');
    await t.http
      .post(`/pay/order/${s.orderNumber}/subscription/cancel`)
      .type('form')
      .send({ transaction_id: s.transactionId, confirm: 'yes' })
      .expect(303);
    expect((await getOrder(t, seller, renewalNumber)).status).toBe('cancelled');
    const again = await t.http.post(`/pay/token/${payToken}/cancel`).set('Accept', 'application/json').expect(409);
    expect(again.body.message).toBe('Order is no longer pending.');
    // Its page still says what it was, and why it closed: not the buyer's cancel.
    const closed = (await checkoutPage(payToken)).text;
    expect(closed).toContain('data-testid="renewal"');
    expect(closed).toContain(
      'data-testid="decline-reason">This renewal was closed because the subscription ended. No payment was made.<',
    );
    expect(closed).not.toContain('You cancelled this checkout');
  });

  it('cancelling from a declined renewal’s own portal lands on that portal, which keeps opening', async () => {
    const { renewalNumber } = await openRenewal('2027-08-03T10:00:00Z');
    const renewal = await getOrder(t, seller, renewalNumber);
    expect(renewal.transaction_id).toEqual(expect.any(String));
    const portal = `/pay/order/${renewalNumber}?transaction_id=${encodeURIComponent(renewal.transaction_id)}`;
    await t.http.get(portal).expect(200);
    const res = await t.http
      .post(`/pay/order/${renewalNumber}/subscription/cancel`)
      .type('form')
      .send({ transaction_id: renewal.transaction_id, confirm: 'yes' })
      .expect(303);
    expect((await getOrder(t, seller, renewalNumber)).status).toBe('cancelled');
    const landed = await t.http.get(pathOf(res.headers.location)).expect(200);
    expect(landed.text).toContain('Your subscription is cancelled');
    await t.http.get(portal).expect(200);
  });

  it('a renewal declined stays payable and its checkout says why, above the pay form', async () => {
    const { s, payToken } = await openRenewal('2027-06-03T10:00:00Z');
    // The portal does not say it renews: it says the payment failed, and until when it is paid.
    const portal = (await t.http.get(pathOf(portalOf(s))).expect(200)).text;
    expect(portal).toContain('data-testid="renewal-failed">The renewal payment did not go through.');
    expect(portal).not.toContain('Renews on');
    expect(portal).toContain('>Pay the renewal</button>');
    // The automatic charge was declined.
    const open = (await checkoutPage(payToken)).text;
    expect(open).toMatch(/data-testid="decline-reason">Payment declined: [^<]* You can try again below\.</);
    expect(open).toContain('>Pay now</button>');
    // Declined again from the checkout: the page it comes back to names that number.
    const declined = await t.http
      .post(`/pay/token/${payToken}/pay`)
      .type('form')
      .send({ payment_method: 'mpesa', payment_number: '841230002' })
      .expect(303);
    expect(declined.headers.location).toBe(`${t.config.urls.pay}/token/${payToken}`);
    const again = (await checkoutPage(payToken)).text;
    expect(again).toContain(
      'data-testid="decline-reason">Payment declined: M-Pesa did not accept the payment from 841230002',
    );
    await payJson(t, payToken, PAYS).expect(200);
    expect((await checkoutPage(payToken)).text).not.toContain('Payment declined');
    // Paid: it renews again.
    const paid = (await t.http.get(pathOf(portalOf(s))).expect(200)).text;
    expect(paid).toContain('Renews on');
    expect(paid).not.toContain('renewal-failed');
  });
});
