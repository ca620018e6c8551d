import { checkoutOf, customerBody, sellerApi, SellerApi } from '../../factories/api';
import { createSeller, TestSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';

/** Issue #6, done when: a coupon with uses_limit 5 never oversells, through the real order route. */
describe('50 concurrent POST /v1/orders on a coupon with uses_limit 5', () => {
  let t: TestApp;
  let seller: TestSeller;
  let api: SellerApi;

  beforeAll(async () => {
    t = await createTestApp();
    seller = await createSeller(t);
    api = sellerApi(t.http, seller.auth);
  });
  afterAll(() => t.close());

  it('gives the discount to exactly 5 orders, 422 on coupon_code to the rest, and a use back on cancellation', async () => {
    const product = await api.product({ name: 'Ebook', price: 200 });
    await api.discount({ code: 'FIVE', type: 'fixed', value: 30, uses_limit: 5 });

    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        t.http
          .post('/v1/orders')
          .set(seller.auth)
          .send({
            amount: 200,
            product_pid: product.pid,
            coupon_code: 'five',
            customer: customerBody(`racer${i}@example.com`),
          }),
      ),
    );

    const created = responses.filter((r) => r.status === 201);
    const refused = responses.filter((r) => r.status !== 201);
    expect(created).toHaveLength(5);
    expect(refused).toHaveLength(45);
    for (const res of refused) {
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        status: 'error',
        message: 'Validation failed.',
        errors: { coupon_code: ['Coupon has no uses left.'] },
      });
    }
    for (const res of created) {
      expect(await api.getOrder(res.body.order_number)).toMatchObject({
        status: 'pending',
        amount: 170,
        original_amount: 200,
        discount_amount: 30,
        coupon_code: 'FIVE',
      });
    }
    expect(await api.getDiscount('FIVE')).toMatchObject({ uses_limit: 5, used_count: 5, available_uses: 0 });
    // A refused order left nothing behind: no order, and no customer either (same transaction).
    expect((await t.http.get('/v1/orders').set(seller.auth).expect(200)).body.total).toBe(5);
    expect((await t.http.get('/v1/customers').set(seller.auth).expect(200)).body.total).toBe(5);

    // The checkout's cancel button releases the use in the order's transaction.
    expect(await checkoutOf(t.http, created[0].body).cancel()).toBe('cancelled');
    expect(await api.getDiscount('FIVE')).toMatchObject({ used_count: 4, available_uses: 1 });
    expect(await api.getOrder(created[0].body.order_number)).toMatchObject({
      status: 'cancelled',
      coupon_code: 'FIVE',
    });

    // The use given back can be taken once, and only once.
    const again = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        t.http
          .post('/v1/orders')
          .set(seller.auth)
          .send({
            amount: 200,
            product_pid: product.pid,
            coupon_code: 'FIVE',
            customer: customerBody(`late${i}@example.com`),
          }),
      ),
    );
    expect(again.map((r) => r.status).sort()).toEqual([201, 422, 422, 422, 422]);
    expect(await api.getDiscount('FIVE')).toMatchObject({ used_count: 5, available_uses: 0 });
  });

  it('an Idempotency-Key replay of an order with a coupon takes no second use', async () => {
    const product = await api.product({ name: 'Guide', price: 80 });
    await api.discount({ code: 'TWO', type: 'percent', value: 50, uses_limit: 2 });
    const body = {
      amount: 80,
      product_pid: product.pid,
      coupon_code: 'TWO',
      customer: customerBody('replay@example.com'),
    };
    const first = await t.http
      .post('/v1/orders')
      .set(seller.auth)
      .set('Idempotency-Key', 'coupon-1')
      .send(body)
      .expect(201);
    const replay = await t.http
      .post('/v1/orders')
      .set(seller.auth)
      .set('Idempotency-Key', 'coupon-1')
      .send(body)
      .expect(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect(await api.getDiscount('TWO')).toMatchObject({ used_count: 1, available_uses: 1 });
    expect(await api.getOrder(first.body.order_number)).toMatchObject({
      amount: 40,
      discount_amount: 40,
      coupon_code: 'TWO',
    });
  });

  it('200 concurrent orders for 100 uses: exactly 100 created, used_count 100, the rest 422', async () => {
    const product = await api.product({ name: 'Flash sale', price: 50 });
    const discount = await api.discount({ code: 'FLASH100', type: 'percent', value: 10, uses_limit: 100 });
    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        t.http
          .post('/v1/orders')
          .set(seller.auth)
          .send({
            amount: 50,
            product_pid: product.pid,
            coupon_code: 'FLASH100',
            customer: customerBody(`flash${i}@example.com`),
          }),
      ),
    );
    const created = responses.filter((r) => r.status === 201);
    expect(created).toHaveLength(100);
    for (const res of responses.filter((r) => r.status !== 201)) {
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual({ coupon_code: ['Coupon has no uses left.'] });
    }
    expect(await api.getDiscount('FLASH100')).toMatchObject({ uses_limit: 100, used_count: 100, available_uses: 0 });
    const [{ orders, discounted }] = await t.dataSource.query(
      `SELECT count(*)::int AS orders, sum(discount_amount)::text AS discounted FROM orders WHERE discount_id = $1`,
      [discount.id],
    );
    expect(orders).toBe(100);
    expect(discounted).toBe('500.00');
  });

  it('20 concurrent orders by one email on a single-use coupon: one is created, 19 are refused as used by the customer', async () => {
    const product = await api.product({ name: 'Once', price: 30 });
    await api.discount({ code: 'ONCE', type: 'fixed', value: 5, single_use: true });
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        t.http
          .post('/v1/orders')
          .set(seller.auth)
          .send({
            amount: 30,
            product_pid: product.pid,
            coupon_code: 'ONCE',
            customer: customerBody('Eager@Example.com'),
          }),
      ),
    );
    expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
    for (const res of responses.filter((r) => r.status !== 201)) {
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual({ coupon_code: ['Coupon has already been used by this customer.'] });
    }
    expect(await api.getDiscount('ONCE')).toMatchObject({ used_count: 1 });
    // Another email still gets it, and the first one does again once its order is cancelled.
    await t.http
      .post('/v1/orders')
      .set(seller.auth)
      .send({ amount: 30, product_pid: product.pid, coupon_code: 'ONCE', customer: customerBody('other@example.com') })
      .expect(201);
    const first = responses.find((r) => r.status === 201)!;
    expect(await checkoutOf(t.http, first.body).cancel()).toBe('cancelled');
    await t.http
      .post('/v1/orders')
      .set(seller.auth)
      .send({ amount: 30, product_pid: product.pid, coupon_code: 'ONCE', customer: customerBody('eager@example.com') })
      .expect(201);
    expect(await api.getDiscount('ONCE')).toMatchObject({ used_count: 2 });
  });
});
