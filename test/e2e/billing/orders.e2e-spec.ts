import { createSeller, TestSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';
import { createOrder, customer, insertPlan, insertProduct, orderBody, pathOf, payJson, recordEvents } from './fixtures';

describe('orders API', () => {
  let t: TestApp;
  let seller: TestSeller;
  let product: { id: number; pid: string };

  beforeAll(async () => {
    t = await createTestApp();
    seller = await createSeller(t);
    product = await insertProduct(t, seller.storeId, { name: 'Photo course', price: '150.00' });
  });
  afterAll(() => t.close());

  describe('POST /v1/orders', () => {
    it('a missing field is "<field> is required." alone; a present one gets its rules', async () => {
      const { amount: _amount, ...withoutAmount } = orderBody(product.pid);
      const missing = await t.http.post('/v1/orders').set(seller.auth).send(withoutAmount).expect(422);
      expect(missing.body).toEqual({
        status: 'error',
        message: 'Validation failed.',
        errors: { amount: ['amount is required.'] },
      });
      const noEmail = orderBody(product.pid, { customer: { name: 'Ana', mobile_number: '+258841234567' } });
      const res = await t.http.post('/v1/orders').set(seller.auth).send(noEmail).expect(422);
      expect(res.body.errors).toEqual({ 'customer.email': ['customer.email is required.'] });
      const low = await t.http
        .post('/v1/orders')
        .set(seller.auth)
        .send({ ...withoutAmount, amount: 5 })
        .expect(422);
      expect(low.body.errors).toEqual({ amount: ['amount must be at least 10.'] });
    });

    it('a null required field is "<field> is required." alone; a value of the wrong type is its type alone', async () => {
      const nulls = await t.http
        .post('/v1/orders')
        .set(seller.auth)
        .send({ amount: null, product_pid: null, customer: null })
        .expect(422);
      expect(nulls.body.errors).toEqual({
        amount: ['amount is required.'],
        product_pid: ['product_pid is required.'],
        customer: ['customer is required.'],
      });
      const wrongTypes = await t.http
        .post('/v1/orders')
        .set(seller.auth)
        .send({ ...orderBody(product.pid), amount: '150', customer: 'Ana' })
        .expect(422);
      expect(wrongTypes.body.errors).toEqual({
        amount: ['amount must be a number.'],
        customer: ['customer must be an object.'],
      });
      const nestedNull = await t.http
        .post('/v1/orders')
        .set(seller.auth)
        .send(orderBody(product.pid, { customer: { ...customer(), name: null } }))
        .expect(422);
      expect(nestedNull.body.errors).toEqual({ 'customer.name': ['customer.name is required.'] });
      // A name of spaces is none; an address outside the documented `email` format (JSON Schema's:
      // ASCII, no quoted part) is refused, as it could not be shown again valid against it.
      const blankAndUnicode = await t.http
        .post('/v1/orders')
        .set(seller.auth)
        .send(orderBody(product.pid, { customer: { ...customer(), name: '   ', email: 'josé@exämple.com' } }))
        .expect(422);
      expect(blankAndUnicode.body.errors).toEqual({
        'customer.name': ['customer.name is required.'],
        'customer.email': ['customer.email must be a valid email address.'],
      });
      await t.http
        .post('/v1/orders')
        .set(seller.auth)
        .send(orderBody(product.pid, { customer: { ...customer(), email: '"a b"@example.com' } }))
        .expect(422);
      // An optional field may be null.
      await t.http
        .post('/v1/orders')
        .set(seller.auth)
        .send(orderBody(product.pid, { plan_id: null, coupon_code: null, from_order: null }))
        .expect(201);
    });

    it('creates a checkout session: 201 with checkout_url, order_number and a pay_token stored hashed', async () => {
      const res = await t.http.post('/v1/orders').set(seller.auth).send(orderBody(product.pid)).expect(201);
      expect(res.body).toEqual({
        status: 'success',
        success: true,
        message: 'Order created successfully.',
        checkout_url: `${t.config.urls.pay}/token/${res.body.pay_token}`,
        order_number: expect.stringMatching(/^ORD-\w{12}$/),
        pay_token: expect.stringMatching(/^[0-9A-Za-z]{32}$/),
      });
      const rows = await t.dataSource.query(
        `SELECT pay_token_hash, status, currency, amount FROM orders WHERE order_number = $1`,
        [res.body.order_number],
      );
      expect(rows[0].pay_token_hash).not.toContain(res.body.pay_token);
      expect(rows[0].pay_token_hash).toHaveLength(64);
      expect(rows[0]).toMatchObject({ status: 'pending', currency: 'MZN', amount: '150.00' });
    });

    it('answers 401 without a token and 403 with the scope body without orders.write', async () => {
      expect((await t.http.post('/v1/orders').send(orderBody(product.pid)).expect(401)).body).toEqual({
        status: 'error',
        message: 'Token not provided',
      });
      const reader = await createSeller(t, { scopes: ['orders.read'] });
      const res = await t.http.post('/v1/orders').set(reader.auth).send(orderBody(product.pid)).expect(403);
      expect(res.body).toMatchObject({
        message: 'Permission denied for this endpoint.',
        required_scopes: ['orders.write'],
        missing_scopes: ['orders.write'],
      });
    });

    it.each([
      ['amount', { amount: 9.99 }],
      ['amount', { amount: 10.001 }],
      ['amount', { amount: '15' }],
      ['product_pid', { product_pid: undefined }],
      ['customer', { customer: undefined }],
      ['customer.name', { customer: { ...customer(), name: '' } }],
      ['customer.email', { customer: { ...customer(), email: 'not-an-email' } }],
      ['customer.mobile_number', { customer: { ...customer(), mobile_number: '841234567' } }],
      ['customer.mobile_number', { customer: { ...customer(), mobile_number: '+25884abc' } }],
      ['return_url', { return_url: 'not a url' }],
      ['cancel_url', { cancel_url: 'ftp://example.com/x' }],
      ['affiliate_id', { affiliate_id: 'x' }],
      ['coupon_code', { coupon_code: 12 }],
      ['tracking.utm_source', { tracking: { utm_source: 5 } }],
    ])('422 on %s for %j', async (field, override) => {
      const res = await t.http
        .post('/v1/orders')
        .set(seller.auth)
        .send({ ...orderBody(product.pid), ...override })
        .expect(422);
      expect(res.body.message).toBe('Validation failed.');
      expect(Object.keys(res.body.errors)).toContain(field);
    });

    it('accepts amount 10 exactly and two decimals', async () => {
      await t.http
        .post('/v1/orders')
        .set(seller.auth)
        .send({ ...orderBody(product.pid), amount: 10 })
        .expect(201);
      await t.http
        .post('/v1/orders')
        .set(seller.auth)
        .send({ ...orderBody(product.pid), amount: 10.55 })
        .expect(201);
    });

    it('404 Product not found. for an unknown or foreign product', async () => {
      const other = await createSeller(t);
      const foreign = await insertProduct(t, other.storeId);
      for (const pid of ['prd_nope', foreign.pid]) {
        const res = await t.http.post('/v1/orders').set(seller.auth).send(orderBody(pid)).expect(404);
        expect(res.body).toEqual({ status: 'error', message: 'Product not found.' });
      }
    });

    it('requires plan_id for a recurring product, 404 Plan not found., and the plan of that product', async () => {
      const recurring = await insertProduct(t, seller.storeId, { type: 'recurring' });
      const otherRecurring = await insertProduct(t, seller.storeId, { type: 'recurring' });
      const plan = await insertPlan(t, seller.storeId, recurring.id);
      const otherPlan = await insertPlan(t, seller.storeId, otherRecurring.id);

      let res = await t.http.post('/v1/orders').set(seller.auth).send(orderBody(recurring.pid)).expect(422);
      expect(res.body.errors).toEqual({ plan_id: ['plan_id is required for recurring products.'] });
      res = await t.http
        .post('/v1/orders')
        .set(seller.auth)
        .send(orderBody(recurring.pid, { plan_id: 'pln_missing' }))
        .expect(404);
      expect(res.body).toEqual({ status: 'error', message: 'Plan not found.' });
      res = await t.http
        .post('/v1/orders')
        .set(seller.auth)
        .send(orderBody(recurring.pid, { plan_id: otherPlan.planId }))
        .expect(422);
      expect(res.body.errors).toEqual({ plan_id: ['The plan does not belong to this product.'] });
      await t.http
        .post('/v1/orders')
        .set(seller.auth)
        .send(orderBody(recurring.pid, { plan_id: plan.planId }))
        .expect(201);
    });

    it('writes no customer and no order for a checkout it refuses', async () => {
      const other = await createSeller(t);
      const foreign = await insertProduct(t, other.storeId);
      const recurring = await insertProduct(t, seller.storeId, { type: 'recurring' });
      const otherRecurring = await insertProduct(t, seller.storeId, { type: 'recurring' });
      const otherPlan = await insertPlan(t, seller.storeId, otherRecurring.id);
      const email = `refused-${Date.now()}@example.com`;
      const count = async () =>
        (
          await t.dataSource.query(
            `SELECT (SELECT count(*) FROM orders)::int AS orders, (SELECT count(*) FROM customers WHERE email = $1)::int AS customers`,
            [email],
          )
        )[0];
      const before = await count();
      for (const [body, status] of [
        [orderBody('prd_nope', { customer: customer(email) }), 404],
        [orderBody(foreign.pid, { customer: customer(email) }), 404],
        [orderBody(recurring.pid, { customer: customer(email) }), 422],
        [orderBody(recurring.pid, { customer: customer(email), plan_id: 'pln_missing' }), 404],
        [orderBody(recurring.pid, { customer: customer(email), plan_id: otherPlan.planId }), 422],
      ] as const) {
        await t.http.post('/v1/orders').set(seller.auth).send(body).expect(status);
      }
      expect(await count()).toEqual({ ...before, customers: 0 });
    });

    it("takes the store's currency and the plan's ids", async () => {
      const usd = await createSeller(t, { currency: 'USD' });
      const club = await insertProduct(t, usd.storeId, { type: 'recurring' });
      const plan = await insertPlan(t, usd.storeId, club.id);
      const created = await createOrder(t, usd, orderBody(club.pid, { plan_id: plan.planId }));
      const rows = await t.dataSource.query(
        `SELECT store_id, product_id, plan_id, currency FROM orders WHERE order_number = $1`,
        [created.order_number],
      );
      expect(rows).toEqual([{ store_id: usd.storeId, product_id: club.id, plan_id: plan.id, currency: 'USD' }]);
    });

    it('creates one customer per store and email, any case, updating its details', async () => {
      const email = `Case-${Date.now()}@Example.com`;
      await createOrder(t, seller, orderBody(product.pid, { customer: { ...customer(email), name: 'First' } }));
      await createOrder(
        t,
        seller,
        orderBody(product.pid, {
          customer: { ...customer(email.toLowerCase()), name: 'Second', payment_number: '841110000' },
        }),
      );
      const rows = await t.dataSource.query(
        `SELECT name, email, payment_number FROM customers WHERE store_id = $1 AND email = $2`,
        [seller.storeId, email.toLowerCase()],
      );
      expect(rows).toEqual([{ name: 'Second', email: email.toLowerCase(), payment_number: '841110000' }]);
    });

    it('keeps one customer when orders for a new email race', async () => {
      const email = `race-${Date.now()}@example.com`;
      const results = await Promise.all(
        Array.from({ length: 6 }, () =>
          t.http
            .post('/v1/orders')
            .set(seller.auth)
            .send(orderBody(product.pid, { customer: customer(email) })),
        ),
      );
      expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201, 201]);
      const rows = await t.dataSource.query(
        `SELECT count(*)::int AS n FROM customers WHERE store_id = $1 AND email = $2`,
        [seller.storeId, email],
      );
      expect(rows[0].n).toBe(1);
    });

    it('stores the tracking object', async () => {
      const created = await createOrder(
        t,
        seller,
        orderBody(product.pid, { tracking: { utm_source: 'facebook', utm_campaign: 'bf' } }),
      );
      const res = await t.http.get(`/v1/orders/${created.order_number}`).set(seller.auth).expect(200);
      expect(res.body.order.tracking).toEqual({
        utm_source: 'facebook',
        utm_campaign: 'bf',
        utm_medium: null,
        utm_content: null,
        utm_term: null,
      });
    });
  });

  describe('from_order', () => {
    it('reuses a pending order unchanged with a fresh pay_token; the old token stops working', async () => {
      const first = await createOrder(t, seller, orderBody(product.pid, { amount: 200 }));
      const res = await t.http
        .post('/v1/orders')
        .set(seller.auth)
        .send(orderBody(product.pid, { amount: 999, from_order: first.order_number }))
        .expect(201);
      expect(res.body.order_number).toBe(first.order_number);
      expect(res.body.pay_token).not.toBe(first.pay_token);
      await t.http.get(pathOf(first.checkout_url)).expect(404);
      await t.http.get(pathOf(res.body.checkout_url)).expect(200);
      const order = (await t.http.get(`/v1/orders/${first.order_number}`).set(seller.auth)).body.order;
      expect(order).toMatchObject({ status: 'pending', amount: 200, original_amount: 200 });
    });

    it('reuses a cancelled order by id, back to pending, sending no event', async () => {
      const first = await createOrder(t, seller, orderBody(product.pid));
      await t.http.post(`/pay/token/${first.pay_token}/cancel`).set('Accept', 'application/json').expect(200);
      const { id } = (await t.http.get(`/v1/orders/${first.order_number}`).set(seller.auth)).body.order;
      const events = recordEvents(t);
      const res = await t.http
        .post('/v1/orders')
        .set(seller.auth)
        .send(orderBody(product.pid, { from_order: id }))
        .expect(201);
      expect(res.body.order_number).toBe(first.order_number);
      const order = (await t.http.get(`/v1/orders/${id}`).set(seller.auth)).body.order;
      expect(order).toMatchObject({ status: 'pending', cancelled_at: null });
      expect(events).toHaveLength(0);
      const paid = await payJson(t, res.body.pay_token, {
        payment_method: 'mpesa',
        payment_number: '841234567',
      }).expect(200);
      expect(paid.body.order_status).toBe('approved');
    });

    it('409 Order cannot be reused. for approved and refunded orders', async () => {
      const first = await createOrder(t, seller, orderBody(product.pid));
      await payJson(t, first.pay_token, { payment_method: 'mpesa', payment_number: '841234567' }).expect(200);
      let res = await t.http
        .post('/v1/orders')
        .set(seller.auth)
        .send(orderBody(product.pid, { from_order: first.order_number }))
        .expect(409);
      expect(res.body).toEqual({ status: 'error', message: 'Order cannot be reused.' });
      await t.http.post(`/v1/orders/${first.order_number}/refund`).set(seller.auth).expect(200);
      res = await t.http
        .post('/v1/orders')
        .set(seller.auth)
        .send(orderBody(product.pid, { from_order: first.order_number }))
        .expect(409);
      expect(res.body.message).toBe('Order cannot be reused.');
    });

    it('judges the product and plan of the body as a new checkout does, and leaves the order as it was', async () => {
      const first = await createOrder(t, seller, orderBody(product.pid));
      const recurring = await insertProduct(t, seller.storeId, { type: 'recurring' });
      const before = await t.dataSource.query(`SELECT pay_token_hash FROM orders WHERE order_number = $1`, [
        first.order_number,
      ]);
      const reuse = (body: Record<string, unknown>) =>
        t.http
          .post('/v1/orders')
          .set(seller.auth)
          .send({ ...orderBody(product.pid), from_order: first.order_number, ...body });
      expect((await reuse({ product_pid: 'prd_nope' }).expect(404)).body).toEqual({
        status: 'error',
        message: 'Product not found.',
      });
      expect((await reuse({ plan_id: 'pln_nope' }).expect(404)).body.message).toBe('Plan not found.');
      expect((await reuse({ product_pid: recurring.pid }).expect(422)).body.errors).toEqual({
        plan_id: ['plan_id is required for recurring products.'],
      });
      const after = await t.dataSource.query(`SELECT pay_token_hash FROM orders WHERE order_number = $1`, [
        first.order_number,
      ]);
      expect(after).toEqual(before);
      await t.http.get(pathOf(first.checkout_url)).expect(200);
    });

    it("404 Order not found. for an unknown or another store's order", async () => {
      const other = await createSeller(t);
      const otherProduct = await insertProduct(t, other.storeId);
      const foreign = await createOrder(t, other, orderBody(otherProduct.pid));
      for (const ref of ['ORD-doesnotexist', foreign.order_number]) {
        const res = await t.http
          .post('/v1/orders')
          .set(seller.auth)
          .send(orderBody(product.pid, { from_order: ref }))
          .expect(404);
        expect(res.body).toEqual({ status: 'error', message: 'Order not found.' });
      }
    });
  });

  describe('GET /v1/orders and /v1/orders/{id}', () => {
    let store: TestSeller;
    let a: { id: number; pid: string };
    let b: { id: number; pid: string };

    beforeAll(async () => {
      store = await createSeller(t);
      a = await insertProduct(t, store.storeId, { name: 'A' });
      b = await insertProduct(t, store.storeId, { name: 'B' });
      const first = await createOrder(t, store, orderBody(a.pid, { customer: customer('x@example.com') }));
      await createOrder(t, store, orderBody(b.pid, { customer: customer('y@example.com') }));
      await createOrder(t, store, orderBody(a.pid, { customer: customer('Y@example.com') }));
      await payJson(t, first.pay_token, { payment_method: 'emola', payment_number: '861234567' }).expect(200);
    });

    it('lists newest first with the envelope and filters status, product, customer and email', async () => {
      const all = await t.http.get('/v1/orders').set(store.auth).expect(200);
      expect(all.body).toMatchObject({ status: 'success', page: 1, per_page: 15, last_page: 1, total: 3 });
      expect(all.body.orders.map((o: { product: { name: string } }) => o.product.name)).toEqual(['A', 'B', 'A']);

      const count = async (query: string) =>
        (await t.http.get(`/v1/orders?${query}`).set(store.auth).expect(200)).body.total;
      expect(await count('status=approved')).toBe(1);
      expect(await count('status=pending')).toBe(2);
      expect(await count(`product=${a.pid}`)).toBe(2);
      expect(await count(`product=${b.id}`)).toBe(1);
      expect(await count('email=Y@EXAMPLE.com')).toBe(2);
      const customerId = all.body.orders[0].customer.id;
      expect(await count(`customer=${customerId}`)).toBe(2);
      expect((await t.http.get('/v1/orders?per_page=2&page=2').set(store.auth).expect(200)).body).toMatchObject({
        last_page: 2,
        orders: [expect.any(Object)],
      });
    });

    it('422 on a bad filter or page', async () => {
      expect((await t.http.get('/v1/orders?status=paid').set(store.auth).expect(422)).body.errors).toHaveProperty(
        'status',
      );
      expect((await t.http.get('/v1/orders?per_page=101').set(store.auth).expect(422)).body.errors).toHaveProperty(
        'per_page',
      );
      expect((await t.http.get('/v1/orders?customer=abc').set(store.auth).expect(422)).body.errors).toHaveProperty(
        'customer',
      );
    });

    it('gets an order by id or order_number with its details; 404 for a foreign or unknown one', async () => {
      const listed = (await t.http.get('/v1/orders?status=approved').set(store.auth)).body.orders[0];
      const byId = await t.http.get(`/v1/orders/${listed.id}`).set(store.auth).expect(200);
      const byNumber = await t.http.get(`/v1/orders/${listed.order_number}`).set(store.auth).expect(200);
      expect(byId.body).toEqual(byNumber.body);
      expect(byId.body.order).toMatchObject({
        status: 'approved',
        currency: 'MZN',
        amount: 150,
        product: { pid: a.pid, name: 'A' },
        customer: { email: 'x@example.com' },
        transaction: {
          payment_method: 'emola',
          payment_number: '861234567',
          transaction_id: expect.stringMatching(/^sbx_/),
        },
        approved_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/),
      });
      expect((await t.http.get(`/v1/orders/${listed.id}`).set(seller.auth).expect(404)).body).toEqual({
        status: 'error',
        message: 'Resource not found.',
      });
      await t.http.get('/v1/orders/ORD-unknown').set(store.auth).expect(404);
    });

    it('needs orders.read (a write scope does not grant read)', async () => {
      await t.http.get('/v1/orders').expect(401);
      const writer = await createSeller(t, { scopes: ['orders.write'] });
      expect((await t.http.get('/v1/orders').set(writer.auth).expect(403)).body.required_scopes).toEqual([
        'orders.read',
      ]);
      await t.http.get('/v1/orders/1').set(writer.auth).expect(403);
    });
  });

  describe('POST /v1/orders/{id}/refund', () => {
    it('refunds an approved order, sending order_refund with its transaction id', async () => {
      const created = await createOrder(t, seller, orderBody(product.pid));
      const paid = await payJson(t, created.pay_token, { payment_method: 'mpesa', payment_number: '841234567' }).expect(
        200,
      );
      expect(paid.body.order_status).toBe('approved');
      const events = recordEvents(t);
      const res = await t.http.post(`/v1/orders/${created.order_number}/refund`).set(seller.auth).expect(200);
      expect(res.body).toMatchObject({
        status: 'success',
        message: 'Order refunded successfully.',
        order: { status: 'refunded', refunded_at: expect.any(String) },
      });
      expect(events.map((e) => e.kind)).toEqual(['order_refund']);
      expect(events[0].payload).toMatchObject({
        order_type: 'order_refund',
        status: 'refunded',
        transaction_id: res.body.order.transaction_id,
      });
    });

    it('409 for pending, cancelled and already refunded orders', async () => {
      const pending = await createOrder(t, seller, orderBody(product.pid));
      let res = await t.http.post(`/v1/orders/${pending.order_number}/refund`).set(seller.auth).expect(409);
      expect(res.body).toEqual({ status: 'error', message: 'Only approved orders can be refunded.' });
      await payJson(t, pending.pay_token, { payment_method: 'mpesa', payment_number: '841230002' }).expect(200);
      res = await t.http.post(`/v1/orders/${pending.order_number}/refund`).set(seller.auth).expect(409);
      expect(res.body).toEqual({ status: 'error', message: 'Only approved orders can be refunded.' });
      const approved = await createOrder(t, seller, orderBody(product.pid));
      await payJson(t, approved.pay_token, { payment_method: 'mpesa', payment_number: '841234567' }).expect(200);
      await t.http.post(`/v1/orders/${approved.order_number}/refund`).set(seller.auth).expect(200);
      await t.http.post(`/v1/orders/${approved.order_number}/refund`).set(seller.auth).expect(409);
    });

    it('401, 403 and 404 for a foreign order', async () => {
      const created = await createOrder(t, seller, orderBody(product.pid));
      await t.http.post(`/v1/orders/${created.order_number}/refund`).expect(401);
      const reader = await createSeller(t, { scopes: ['orders.read'] });
      await t.http.post(`/v1/orders/${created.order_number}/refund`).set(reader.auth).expect(403);
      const other = await createSeller(t);
      expect(
        (await t.http.post(`/v1/orders/${created.order_number}/refund`).set(other.auth).expect(404)).body.message,
      ).toBe('Resource not found.');
    });
  });
});
