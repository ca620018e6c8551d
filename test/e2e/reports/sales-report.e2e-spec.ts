import { createSeller, TestSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';
import { createOrder, insertPlan, insertProduct, orderBody, payJson } from '../billing/fixtures';

/** decisions: GET /v1/reports/sales — per UTC day, gross by approval day, refunds by refund day. */
describe('GET /v1/reports/sales', () => {
  let t: TestApp;
  let seller: TestSeller;
  let other: TestSeller;

  beforeAll(async () => {
    t = await createTestApp();
    seller = await createSeller(t);
    other = await createSeller(t, { currency: 'USD' });
  });
  afterAll(() => t.close());

  /** An order of `amount` paid at `at` (the test clock). */
  async function sale(who: TestSeller, productPid: string, amount: number, at: string, extra = {}): Promise<string> {
    t.clock.set(new Date(at));
    const created = await createOrder(t, who, orderBody(productPid, { amount, ...extra }));
    await payJson(t, created.pay_token, { payment_method: 'mpesa', payment_number: '841230001' }).expect(200);
    return created.order_number;
  }

  const report = (who: TestSeller, query: Record<string, string> = {}) =>
    t.http.get('/v1/reports/sales').query(query).set(who.auth);

  it('sums approvals and refunds per UTC day, with every day of the range, and MRR from active plans', async () => {
    const product = await insertProduct(t, seller.storeId, { price: '100.00' });
    await sale(seller, product.pid, 100.1, '2026-03-01T00:00:00.000Z');
    await sale(seller, product.pid, 10.2, '2026-03-01T23:59:59.999Z');
    const refundedLater = await sale(seller, product.pid, 50.05, '2026-03-03T12:00:00.000Z');
    // Before the range: counts only by its refund, made inside it.
    const before = await sale(seller, product.pid, 30, '2026-02-27T10:00:00.000Z');
    t.clock.set(new Date('2026-03-03T13:00:00.000Z'));
    await t.http.post(`/v1/orders/${before}/refund`).set(seller.auth).expect(200);
    t.clock.set(new Date('2026-03-05T09:00:00.000Z'));
    await t.http.post(`/v1/orders/${refundedLater}/refund`).set(seller.auth).expect(200);
    // A pending order and another store's sale count nowhere.
    await createOrder(t, seller, orderBody(product.pid, { amount: 999 }));
    const foreign = await insertProduct(t, other.storeId, { price: '5.00' });
    await sale(other, foreign.pid, 15, '2026-03-01T10:00:00.000Z');

    // Subscriptions: monthly 300, yearly 1200 (a twelfth: 100) → MRR 400; one started in range.
    const club = await insertProduct(t, seller.storeId, { type: 'recurring', price: null });
    const monthly = await insertPlan(t, seller.storeId, club.id, { price: '300.00', interval: 'month' });
    const yearly = await insertPlan(t, seller.storeId, club.id, { price: '1200.00', interval: 'year' });
    await sale(seller, club.pid, 300, '2026-03-02T08:00:00.000Z', { plan_id: monthly.planId });
    await sale(seller, club.pid, 1200, '2026-01-10T08:00:00.000Z', { plan_id: yearly.planId });

    const res = await report(seller, { from: '2026-03-01', to: '2026-03-05' }).expect(200);
    expect(res.body).toEqual({
      status: 'success',
      report: {
        currency: 'MZN',
        from: '2026-03-01',
        to: '2026-03-05',
        gross: 460.35,
        refunded: 80.05,
        net: 380.3,
        orders_paid: 4,
        orders_refunded: 2,
        new_subscriptions: 1,
        active_subscriptions: 2,
        mrr: 400,
        days: [
          { date: '2026-03-01', gross: 110.3, refunded: 0, orders_paid: 2 },
          { date: '2026-03-02', gross: 300, refunded: 0, orders_paid: 1 },
          { date: '2026-03-03', gross: 50.05, refunded: 30, orders_paid: 1 },
          { date: '2026-03-04', gross: 0, refunded: 0, orders_paid: 0 },
          { date: '2026-03-05', gross: 0, refunded: 50.05, orders_paid: 0 },
        ],
      },
    });

    const single = await report(seller, { from: '2026-03-01', to: '2026-03-01' }).expect(200);
    expect(single.body.report.days).toEqual([{ date: '2026-03-01', gross: 110.3, refunded: 0, orders_paid: 2 }]);

    const foreignReport = await report(other, { from: '2026-03-01', to: '2026-03-05' }).expect(200);
    expect(foreignReport.body.report).toMatchObject({ currency: 'USD', gross: 15, orders_paid: 1, mrr: 0 });
  });

  it('defaults to the last 30 UTC days, today included', async () => {
    t.clock.set(new Date('2026-04-10T22:00:00.000Z'));
    const res = await report(seller).expect(200);
    expect(res.body.report.from).toBe('2026-03-12');
    expect(res.body.report.to).toBe('2026-04-10');
    expect(res.body.report.days).toHaveLength(30);
    const onlyTo = await report(seller, { to: '2026-03-05' }).expect(200);
    expect(onlyTo.body.report.from).toBe('2026-02-04');
  });

  it('covers at most 366 days; bad dates are 422 on their field', async () => {
    const year = await report(seller, { from: '2025-03-06', to: '2026-03-06' }).expect(200);
    expect(year.body.report.days).toHaveLength(366);
    const tooLong = await report(seller, { from: '2025-03-05', to: '2026-03-06' }).expect(422);
    expect(tooLong.body).toEqual({
      status: 'error',
      message: 'Validation failed.',
      errors: { to: ['The range may cover at most 366 days.'] },
    });
    const reversed = await report(seller, { from: '2026-03-06', to: '2026-03-05' }).expect(422);
    expect(reversed.body.errors).toEqual({ from: ['from must not be after to.'] });
    for (const bad of ['2026-02-30', '2026-3-1', 'yesterday', '2026-03-01T00:00:00Z']) {
      const res = await report(seller, { from: bad }).expect(422);
      expect(res.body.errors).toEqual({ from: ['from must be a date in the form YYYY-MM-DD.'] });
    }
    // The calendar's ends: a report of the last days of year 9999 is a report; year 0 is refused.
    const last = await report(seller, { from: '9999-12-01', to: '9999-12-31' }).expect(200);
    expect(last.body.report.days).toHaveLength(31);
    expect(last.body.report.days.at(-1).date).toBe('9999-12-31');
    await report(seller, { from: '9999-12-31', to: '9999-12-31' }).expect(200);
    const early = await report(seller, { to: '0000-01-01' }).expect(422);
    expect(early.body.errors).toEqual({ from: ['from must be on or after 1970-01-01.'] });
    const before = await report(seller, { from: '1969-12-31', to: '1970-01-02' }).expect(422);
    expect(before.body.errors).toEqual({ from: ['from must be on or after 1970-01-01.'] });
  }, 30_000);

  it('needs a token (401) with orders.read (403)', async () => {
    await t.http.get('/v1/reports/sales').expect(401);
    const token = await seller.tokenWith(['products.read']);
    const res = await t.http.get('/v1/reports/sales').set('Authorization', `Bearer ${token}`).expect(403);
    expect(res.body.message).toBe('Permission denied for this endpoint.');
    const readOnly = await seller.tokenWith(['orders.read']);
    await t.http.get('/v1/reports/sales').set('Authorization', `Bearer ${readOnly}`).expect(200);
  });
});
