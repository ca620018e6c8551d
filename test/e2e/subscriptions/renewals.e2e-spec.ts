import type { DomainEvent } from '../../../src/common/events/domain-event';
import { createSeller, TestSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';
import { recordEvents, RecordedEvent } from '../billing/fixtures';
import {
  DAY,
  getOrder,
  getSubscription,
  HOUR,
  monthsFrom,
  ofSubscription,
  recordDomainEvents,
  subscribe,
  sweepFor,
} from './helpers';

describe('Subscriptions that renew: the sweep with the test clock', () => {
  let t: TestApp;
  let seller: TestSeller;
  let events: DomainEvent[];
  let payloads: RecordedEvent[];

  beforeAll(async () => {
    // The periodic sweep runs once at boot (nothing to do yet); the tests sweep themselves.
    t = await createTestApp({ env: { SUBSCRIPTION_SWEEP_SECONDS: '86400' } });
    seller = await createSeller(t);
    events = recordDomainEvents(t);
    payloads = recordEvents(t);
  });
  afterAll(() => t.close());

  it('a monthly subscription from Jan 31 through twelve paid renewals: exact end dates, counted from the start', async () => {
    const start = new Date('2031-01-31T10:00:00.000Z');
    const s = await subscribe(t, seller, { at: start });
    expect(s.subscription).toMatchObject({
      status: 'active',
      start_date: '2031-01-31T10:00:00.000000Z',
      end_date: '2031-02-28T10:00:00.000000Z',
      cancelled_at: null,
      cancel_at_period_end: false,
      orders: [s.orderNumber],
    });
    const expected = [
      '2031-03-31',
      '2031-04-30',
      '2031-05-31',
      '2031-06-30',
      '2031-07-31',
      '2031-08-31',
      '2031-09-30',
      '2031-10-31',
      '2031-11-30',
      '2031-12-31',
      '2032-01-31',
      '2032-02-29',
    ];
    let end = new Date(s.subscription.end_date);
    for (let n = 0; n < 12; n++) {
      // 71 hours before the end: inside the 72-hour lead.
      const report = await sweepFor(t, s.subscriptionId, new Date(end.getTime() - 71 * HOUR));
      expect(report.renewal_orders).toEqual([
        { subscription_id: s.subscriptionId, order_number: expect.stringMatching(/^ORD-/) },
      ]);
      expect(report.attempts).toEqual([
        {
          subscription_id: s.subscriptionId,
          order_number: report.renewal_orders[0].order_number,
          attempt: 1,
          outcome: 'approved',
        },
      ]);
      const sub = await getSubscription(t, seller, s.subscriptionId);
      expect(sub.status).toBe('active');
      expect(sub.end_date).toBe(`${expected[n]}T10:00:00.000000Z`);
      expect(sub.end_date).toBe(
        monthsFrom(start, n + 2)
          .toISOString()
          .replace('Z', '000Z'),
      );
      expect(sub.orders).toHaveLength(n + 2);
      expect(sub.orders[n + 1]).toBe(report.renewal_orders[0].order_number);

      // The renewal order: the plan's price, no coupon, linked to the subscription; its order_approved shows the new period.
      const renewal = await getOrder(t, seller, report.renewal_orders[0].order_number);
      expect(renewal).toMatchObject({
        status: 'approved',
        amount: 300,
        original_amount: 300,
        discount_amount: 0,
        coupon_code: null,
      });
      expect(renewal.subscription).toEqual({
        id: s.subscriptionId,
        status: 'active',
        start_date: s.subscription.start_date,
        end_date: sub.end_date,
        cancelled_at: null,
      });
      const approved = payloads.filter(
        (p) => p.kind === 'order_approved' && p.payload.order_number === renewal.order_number,
      );
      expect(approved).toHaveLength(1);
      expect(approved[0].payload.plan_subscriber).toMatchObject({
        status: 'active',
        start_date: s.subscription.start_date,
        end_date: sub.end_date,
        plan_name: 'Mensal',
      });

      // The same instant again: nothing more to do.
      const again = await sweepFor(t, s.subscriptionId, new Date(end.getTime() - 71 * HOUR));
      expect(again).toMatchObject({
        renewal_orders: [],
        attempts: [],
        past_due: [],
        expired: [],
        cancelled: [],
        errors: [],
      });
      end = new Date(sub.end_date);
    }
    // Every renewal was charged at once on the saved number: no "pay this renewal" email (renewal_due).
    expect(ofSubscription(events, s.subscriptionId)).toEqual([]);

    // The plan's subscribers are its orders ever approved: the first and each paid renewal, newest first.
    const subscribers = (
      await t.http.get(`/v1/plans/${s.plan.planId}/subscribers?per_page=100`).set(seller.auth).expect(200)
    ).body;
    const sold = (await getSubscription(t, seller, s.subscriptionId)).orders as string[];
    expect(subscribers.total).toBe(sold.length);
    expect(subscribers.subscribers.map((x: { order_number: string }) => x.order_number)).toEqual([...sold].reverse());
    expect(subscribers.subscribers.every((x: { status: string }) => x.status === 'approved')).toBe(true);
  });

  it('no renewal order before the lead time; a plan price change applies from the next period', async () => {
    const start = new Date('2033-05-10T08:00:00.000Z');
    const s = await subscribe(t, seller, { at: start, price: '300.00' });
    const end = new Date(s.subscription.end_date);
    expect((await sweepFor(t, s.subscriptionId, new Date(end.getTime() - 73 * HOUR))).renewal_orders).toEqual([]);

    await t.http.patch(`/v1/plans/${s.plan.planId}`).set(seller.auth).send({ price: 450 }).expect(200);
    const report = await sweepFor(t, s.subscriptionId, new Date(end.getTime() - 72 * HOUR));
    expect(report.renewal_orders).toHaveLength(1);
    const renewal = await getOrder(t, seller, report.renewal_orders[0].order_number);
    expect(renewal).toMatchObject({ amount: 450, original_amount: 450, status: 'approved', currency: 'MZN' });
    expect(renewal.plan).toMatchObject({ plan_id: s.plan.planId, price: 450 });
    // The first order keeps what it was paid.
    expect((await getOrder(t, seller, s.orderNumber)).amount).toBe(300);
  });

  it('unpaid: declined automatic attempts leave the order pending; past_due at end_date, retries 1 and 3 days later, expired after 7 days with the renewal order cancelled', async () => {
    const start = new Date('2034-03-15T12:00:00.000Z');
    const s = await subscribe(t, seller, { at: start, paymentNumber: '841230003' });
    const end = new Date(s.subscription.end_date);
    expect(end.toISOString()).toBe('2034-04-15T12:00:00.000Z');

    const first = await sweepFor(t, s.subscriptionId, new Date(end.getTime() - 72 * HOUR));
    const renewalNumber = first.renewal_orders[0].order_number;
    expect(first.attempts).toEqual([
      { subscription_id: s.subscriptionId, order_number: renewalNumber, attempt: 1, outcome: 'declined' },
    ]);
    expect((await getOrder(t, seller, renewalNumber)).status).toBe('pending');
    // Charged at once, so no renewal_due; its failure sends the link (payment_failed).
    expect(ofSubscription(events, s.subscriptionId)).toEqual(['subscription.payment_failed']);

    // Just before the end: still active, nothing more.
    expect(await sweepFor(t, s.subscriptionId, new Date(end.getTime() - 1000))).toMatchObject({
      past_due: [],
      attempts: [],
    });
    const due = await sweepFor(t, s.subscriptionId, end);
    expect(due).toMatchObject({ past_due: [s.subscriptionId], attempts: [] });
    expect((await getSubscription(t, seller, s.subscriptionId)).status).toBe('past_due');
    const pastDue = events.find(
      (e) => e.type === 'subscription.past_due' && e.refs.subscriptionId === s.subscriptionId,
    )!;
    expect(pastDue).toMatchObject({
      from: 'active',
      to: 'past_due',
      aggregate: { type: 'subscription', id: s.subscriptionId },
    });
    expect(pastDue.refs).toEqual({
      subscriptionId: s.subscriptionId,
      orderId: expect.any(Number),
      productId: s.product.id,
      planId: s.plan.id,
    });

    expect((await sweepFor(t, s.subscriptionId, new Date(end.getTime() + DAY - 1000))).attempts).toEqual([]);
    expect((await sweepFor(t, s.subscriptionId, new Date(end.getTime() + DAY))).attempts).toEqual([
      expect.objectContaining({ attempt: 2, outcome: 'declined' }),
    ]);
    expect((await sweepFor(t, s.subscriptionId, new Date(end.getTime() + 2 * DAY))).attempts).toEqual([]);
    expect((await sweepFor(t, s.subscriptionId, new Date(end.getTime() + 3 * DAY))).attempts).toEqual([
      expect.objectContaining({ attempt: 3, outcome: 'declined' }),
    ]);
    expect((await sweepFor(t, s.subscriptionId, new Date(end.getTime() + 6 * DAY))).attempts).toEqual([]);
    expect((await getOrder(t, seller, renewalNumber)).status).toBe('pending');

    expect((await sweepFor(t, s.subscriptionId, new Date(end.getTime() + 7 * DAY - 1000))).expired).toEqual([]);
    const expiry = await sweepFor(t, s.subscriptionId, new Date(end.getTime() + 7 * DAY));
    expect(expiry.expired).toEqual([s.subscriptionId]);
    const sub = await getSubscription(t, seller, s.subscriptionId);
    expect(sub).toMatchObject({
      status: 'expired',
      end_date: s.subscription.end_date,
      orders: [s.orderNumber, renewalNumber],
    });
    expect((await getOrder(t, seller, renewalNumber)).status).toBe('cancelled');
    // Its order_cancelled: the transaction id its last declined attempt gave it (kept, so the links to
    // its portal already given out keep opening), a portal link that opens, the subscription as it ended.
    const cancelled = payloads.find((p) => p.kind === 'order_cancelled' && p.payload.order_number === renewalNumber)!;
    expect(cancelled.payload.transaction_id).toMatch(/^sbx_[0-9A-Za-z]{20}$/);
    expect(cancelled.payload.plan_subscriber.status).toBe('expired');
    expect((await getOrder(t, seller, renewalNumber)).transaction_id).toBe(cancelled.payload.transaction_id);
    const portal = new URL(cancelled.payload.plan_subscriber.portal_url);
    await t.http.get(portal.pathname + portal.search).expect(200);
    expect(ofSubscription(events, s.subscriptionId)).toEqual([
      'subscription.payment_failed',
      'subscription.past_due',
      'subscription.payment_failed',
      'subscription.payment_failed',
      'subscription.expired',
    ]);
    // Nothing after expiry, however long the sweep goes on.
    expect(await sweepFor(t, s.subscriptionId, new Date(end.getTime() + 60 * DAY))).toMatchObject({
      renewal_orders: [],
      attempts: [],
      past_due: [],
      expired: [],
      cancelled: [],
    });
    // A cancelled renewal order is not reopened by from_order.
    await t.http
      .post('/v1/orders')
      .set(seller.auth)
      .send({
        amount: 300,
        product_pid: s.product.pid,
        plan_id: s.plan.planId,
        customer: { name: 'A', email: 'a@example.com', mobile_number: '+258841234567' },
        from_order: renewalNumber,
      })
      .expect(409);
  });

  it('a sweep that runs late charges the renewal before it decides past_due or expiry', async () => {
    // Paid on the saved number: one sweep 8 days after end_date renews it, nothing lapses.
    const paying = await subscribe(t, seller, { at: new Date('2035-01-10T08:00:00.000Z') });
    const end = new Date(paying.subscription.end_date);
    const late = await sweepFor(t, paying.subscriptionId, new Date(end.getTime() + 8 * DAY));
    const renewal = late.renewal_orders[0].order_number;
    expect(late).toMatchObject({
      attempts: [{ subscription_id: paying.subscriptionId, order_number: renewal, attempt: 1, outcome: 'approved' }],
      past_due: [],
      expired: [],
    });
    const renewed = await getSubscription(t, seller, paying.subscriptionId);
    expect(renewed).toMatchObject({ status: 'active', orders: [paying.orderNumber, renewal] });
    expect(new Date(renewed.end_date).getTime()).toBe(monthsFrom(end, 1).getTime());

    // Declined on every renewal: the late sweep still tries once before it expires the subscription.
    const declining = await subscribe(t, seller, {
      at: new Date('2035-01-10T08:00:00.000Z'),
      paymentNumber: '841230003',
    });
    const lapsed = await sweepFor(t, declining.subscriptionId, new Date(end.getTime() + 8 * DAY));
    expect(lapsed).toMatchObject({
      attempts: [expect.objectContaining({ attempt: 1, outcome: 'declined' })],
      past_due: [declining.subscriptionId],
      expired: [declining.subscriptionId],
    });

    // Past due with its retries missed (no sweep for days): the next sweep retries before expiring.
    const missed = await subscribe(t, seller, { at: new Date('2035-01-10T08:00:00.000Z'), paymentNumber: '841230003' });
    await sweepFor(t, missed.subscriptionId, new Date(end.getTime() - 72 * HOUR));
    expect((await sweepFor(t, missed.subscriptionId, end)).past_due).toEqual([missed.subscriptionId]);
    expect(await sweepFor(t, missed.subscriptionId, new Date(end.getTime() + 8 * DAY))).toMatchObject({
      attempts: [expect.objectContaining({ attempt: 3, outcome: 'declined' })],
      expired: [missed.subscriptionId],
    });
  });

  it('a sweep that runs periods late renews each missed period in turn, and renews one left past due without its renewal', async () => {
    const start = new Date('2036-02-02T10:00:00.000Z');
    const weekly = await subscribe(t, seller, { at: start, interval: 'week' });
    // Three weeks after its end_date: periods 2 to 5 are due (the last within the renewal lead).
    const late = await sweepFor(t, weekly.subscriptionId, new Date(start.getTime() + 28 * DAY));
    expect(late.renewal_orders).toHaveLength(4);
    expect(late.attempts.map((a) => a.outcome)).toEqual(['approved', 'approved', 'approved', 'approved']);
    expect(late).toMatchObject({ past_due: [], expired: [] });
    const caughtUp = await getSubscription(t, seller, weekly.subscriptionId);
    expect(caughtUp.status).toBe('active');
    expect(caughtUp.orders).toHaveLength(5);
    expect(new Date(caughtUp.end_date).getTime()).toBe(start.getTime() + 35 * DAY);

    // What an earlier version's late sweep left: past due with no renewal of the next period.
    const stuck = await subscribe(t, seller, { at: start, interval: 'week' });
    await t.dataSource.query(`UPDATE subscriptions SET status = 'past_due' WHERE id = $1`, [stuck.subscriptionId]);
    const again = await sweepFor(t, stuck.subscriptionId, new Date(start.getTime() + 8 * DAY));
    expect(again.renewal_orders).toHaveLength(1);
    expect(again).toMatchObject({ expired: [], attempts: [expect.objectContaining({ outcome: 'approved' })] });
    expect((await getSubscription(t, seller, stuck.subscriptionId)).status).toBe('active');
  });

  it('expiry waits while the renewal has a payment still to be answered, then expires it', async () => {
    const s = await subscribe(t, seller, { at: new Date('2037-03-03T10:00:00.000Z'), paymentNumber: '841230003' });
    const end = new Date(s.subscription.end_date);
    const renewal = (await sweepFor(t, s.subscriptionId, new Date(end.getTime() - 72 * HOUR))).renewal_orders[0];
    expect((await sweepFor(t, s.subscriptionId, end)).past_due).toEqual([s.subscriptionId]);
    // As an M-Pesa prompt on the customer's phone leaves it: the attempt not answered yet.
    await t.dataSource.query(
      `UPDATE payment_attempts SET status = 'processing', finished_at = NULL
        WHERE order_id = (SELECT id FROM orders WHERE order_number = $1)`,
      [renewal.order_number],
    );
    expect((await sweepFor(t, s.subscriptionId, new Date(end.getTime() + 8 * DAY))).expired).toEqual([]);
    expect((await getOrder(t, seller, renewal.order_number)).status).toBe('pending');
    expect((await getSubscription(t, seller, s.subscriptionId)).status).toBe('past_due');

    await t.dataSource.query(
      `UPDATE payment_attempts SET status = 'failed', finished_at = now()
        WHERE order_id = (SELECT id FROM orders WHERE order_number = $1)`,
      [renewal.order_number],
    );
    expect((await sweepFor(t, s.subscriptionId, new Date(end.getTime() + 8 * DAY))).expired).toEqual([
      s.subscriptionId,
    ]);
    expect((await getOrder(t, seller, renewal.order_number)).status).toBe('cancelled');
  });

  it('a failed renewal paid through the portal link: extended from the previous end_date, active again, and the link stops working', async () => {
    const start = new Date('2035-01-31T09:30:00.000Z');
    const s = await subscribe(t, seller, { at: start, paymentNumber: '841230003' });
    const end = new Date(s.subscription.end_date);
    const first = await sweepFor(t, s.subscriptionId, new Date(end.getTime() - 48 * HOUR));
    const renewalNumber = first.renewal_orders[0].order_number;
    await sweepFor(t, s.subscriptionId, new Date(end.getTime() + 2 * HOUR));
    const portalPath = `/pay/order/${s.orderNumber}?transaction_id=${s.transactionId}`;
    const portal = (await t.http.get(portalPath).expect(200)).text;
    expect(portal).toContain('past due');
    expect(portal).toContain('Pay the renewal');
    expect(portal).not.toContain('Renews on');

    const link = await t.http
      .post(`/pay/order/${s.orderNumber}/subscription/renewal`)
      .type('form')
      .send({ transaction_id: s.transactionId })
      .expect(303);
    expect(link.headers.location).toMatch(new RegExp(`^${t.config.urls.pay}/token/[A-Za-z0-9]{32}$`));
    const given = link.headers.location.split('/').pop()!;
    await t.http.get(`/pay/token/${given}`).expect(200);
    // Every press, and every dunning email, gives the same link (OrdersService.checkoutUrlFor derives
    // it): one the customer already holds keeps working, whenever the emails go out.
    const again = await t.http
      .post(`/pay/order/${s.orderNumber}/subscription/renewal`)
      .type('form')
      .send({ transaction_id: s.transactionId })
      .expect(303);
    const token = again.headers.location.split('/').pop()!;
    expect(token).toBe(given);
    await t.http
      .post(`/pay/order/${s.orderNumber}/subscription/renewal`)
      .type('form')
      .send({ transaction_id: 'wrong' })
      .expect(404);

    const paid = await t.http
      .post(`/pay/token/${token}/pay`)
      .set('Accept', 'application/json')
      .send({ payment_method: 'mpesa', payment_number: '841239999' })
      .expect(200);
    expect(paid.body).toEqual({ status: 'success', order_number: renewalNumber, order_status: 'approved' });
    const sub = await getSubscription(t, seller, s.subscriptionId);
    // Feb 28 → Mar 31: one month from the previous end, counted from Jan 31.
    expect(sub).toMatchObject({
      status: 'active',
      end_date: '2035-03-31T09:30:00.000000Z',
      orders: [s.orderNumber, renewalNumber],
    });
    const approved = payloads.find((p) => p.kind === 'order_approved' && p.payload.order_number === renewalNumber)!;
    expect(approved.payload.plan_subscriber).toMatchObject({
      status: 'active',
      end_date: '2035-03-31T09:30:00.000000Z',
    });
    const after = (await t.http.get(portalPath).expect(200)).text;
    expect(after).toContain('Renews on</span><span>2035-03-31');
    expect(after).not.toContain('Pay the renewal');
    // The retry window of the paid period is over: no attempt on a paid order.
    expect((await sweepFor(t, s.subscriptionId, new Date(end.getTime() + DAY))).attempts).toEqual([]);
  });

  it('a declined payment of a renewal at the checkout leaves it pending and reports subscription.payment_failed', async () => {
    const s = await subscribe(t, seller, { at: new Date('2036-06-01T00:00:00.000Z'), paymentNumber: '841230003' });
    const end = new Date(s.subscription.end_date);
    const report = await sweepFor(t, s.subscriptionId, new Date(end.getTime() - 10 * HOUR));
    const renewalNumber = report.renewal_orders[0].order_number;
    const link = await t.http
      .post(`/pay/order/${s.orderNumber}/subscription/renewal`)
      .set('Accept', 'application/json')
      .send({ transaction_id: s.transactionId })
      .expect(200);
    const token = link.body.checkout_url.split('/').pop();
    const before = ofSubscription(events, s.subscriptionId).length;
    const declined = await t.http
      .post(`/pay/token/${token}/pay`)
      .set('Accept', 'application/json')
      .send({ payment_method: 'mpesa', payment_number: '841230002' })
      .expect(200);
    expect(declined.body.order_status).toBe('pending');
    expect(ofSubscription(events, s.subscriptionId).slice(before)).toEqual(['subscription.payment_failed']);
    expect((await getOrder(t, seller, renewalNumber)).status).toBe('pending');
  });
});
