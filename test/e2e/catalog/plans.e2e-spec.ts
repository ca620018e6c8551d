import { createSeller, TestSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';
import { createPlan, createProduct, CreatedProduct, forbidden, insertOrder, NOT_FOUND } from './catalog-fixtures';

describe('Plans', () => {
  let t: TestApp;
  let seller: TestSeller;
  let other: TestSeller;
  let club: CreatedProduct;

  beforeAll(async () => {
    t = await createTestApp();
    seller = await createSeller(t);
    other = await createSeller(t);
    club = await createProduct(t, seller, { name: 'Clube', type: 'recurring' });
  });
  afterAll(() => t.close());

  describe('POST /v1/plans and POST /v1/plan', () => {
    it('creates a plan of a recurring product by product_pid', async () => {
      const res = await t.http
        .post('/v1/plans')
        .set(seller.auth)
        .send({ product_pid: club.pid, name: 'Mensal', price: 499.9, interval: 'month' })
        .expect(201);
      expect(res.body).toEqual({
        status: 'success',
        message: 'Plan created successfully.',
        plan: {
          id: expect.any(Number),
          plan_id: expect.stringMatching(/^plan_[0-9A-Za-z]{16}$/),
          name: 'Mensal',
          price: 499.9,
          currency: 'MZN',
          interval: 'month',
          interval_count: 1,
          product_pid: club.pid,
          created_at: expect.any(String),
          updated_at: expect.any(String),
        },
      });
    });

    it('answers the spec path POST /v1/plan the same way, by product_id', async () => {
      const res = await t.http
        .post('/v1/plan')
        .set(seller.auth)
        .send({ product_id: club.id, name: 'Anual', price: 5000, interval: 'year', interval_count: 1 })
        .expect(201);
      expect(res.body.plan).toMatchObject({ name: 'Anual', interval: 'year', product_pid: club.pid });
    });

    it('422 for a one-time product', async () => {
      const once = await createProduct(t, seller, { name: 'Ebook' });
      const res = await t.http
        .post('/v1/plans')
        .set(seller.auth)
        .send({ product_id: once.id, name: 'Mensal', price: 10, interval: 'month' })
        .expect(422);
      expect(res.body).toEqual({
        status: 'error',
        message: 'Validation failed.',
        errors: { product_id: ['Plans can only be created for recurring products.'] },
      });
    });

    it('422 with field errors, and without any product reference', async () => {
      const res = await t.http
        .post('/v1/plans')
        .set(seller.auth)
        .send({ product_pid: club.pid, price: 0, interval: 'fortnight', interval_count: 0 })
        .expect(422);
      expect(Object.keys(res.body.errors).sort()).toEqual(['interval', 'interval_count', 'name', 'price']);
      const noProduct = await t.http
        .post('/v1/plans')
        .set(seller.auth)
        .send({ name: 'x', price: 1, interval: 'day' })
        .expect(422);
      expect(Object.keys(noProduct.body.errors)).toEqual(['product_id']);
    });

    it('404 Product not found. for an unknown product or another store product', async () => {
      const foreign = await createProduct(t, other, { name: 'Foreign', type: 'recurring' });
      for (const ref of [
        { product_pid: 'prod_nope' },
        { product_id: 987654 },
        { product_pid: foreign.pid },
        { product_id: foreign.id },
      ]) {
        const res = await t.http
          .post('/v1/plans')
          .set(seller.auth)
          .send({ ...ref, name: 'x', price: 1, interval: 'day' })
          .expect(404);
        expect(res.body).toEqual({ status: 'error', message: 'Product not found.' });
      }
    });
  });

  describe('GET, PATCH', () => {
    it('gets a plan by plan_id and by id', async () => {
      const plan = await createPlan(t, seller, club.pid);
      const byPlanId = await t.http.get(`/v1/plans/${plan.plan_id}`).set(seller.auth).expect(200);
      const byId = await t.http.get(`/v1/plans/${plan.id}`).set(seller.auth).expect(200);
      expect(byPlanId.body).toEqual({ status: 'success', plan });
      expect(byId.body).toEqual(byPlanId.body);
    });

    it('lists plans in the pagination envelope, only the store ones', async () => {
      const foreignProduct = await createProduct(t, other, { name: 'F', type: 'recurring' });
      const foreignPlan = await createPlan(t, other, foreignProduct.pid);
      const res = await t.http.get('/v1/plans?per_page=100').set(seller.auth).expect(200);
      expect(res.body).toMatchObject({ status: 'success', page: 1, per_page: 100, last_page: 1 });
      expect(res.body.total).toBe(res.body.plans.length);
      expect(res.body.plans.length).toBeGreaterThan(0);
      expect(res.body.plans.map((p: { plan_id: string }) => p.plan_id)).not.toContain(foreignPlan.plan_id);
      expect(res.body.plans.every((p: { product_pid: string }) => p.product_pid === club.pid)).toBe(true);
    });

    it('updates name, price and interval', async () => {
      const plan = await createPlan(t, seller, club.pid);
      const res = await t.http
        .patch(`/v1/plans/${plan.plan_id}`)
        .set(seller.auth)
        .send({ name: 'Trimestral', price: 1200.5, interval: 'month', interval_count: 3 })
        .expect(200);
      expect(res.body.message).toBe('Plan updated successfully.');
      expect(res.body.plan).toMatchObject({
        name: 'Trimestral',
        price: 1200.5,
        interval_count: 3,
        plan_id: plan.plan_id,
      });
    });

    it('422 for a null or invalid field on update', async () => {
      const plan = await createPlan(t, seller, club.pid);
      const res = await t.http
        .patch(`/v1/plans/${plan.id}`)
        .set(seller.auth)
        .send({ name: null, price: -1 })
        .expect(422);
      expect(Object.keys(res.body.errors).sort()).toEqual(['name', 'price']);
    });

    it('404 Resource not found. for an unknown plan and another store plan', async () => {
      const foreignProduct = await createProduct(t, other, { name: 'F', type: 'recurring' });
      const foreignPlan = await createPlan(t, other, foreignProduct.pid);
      for (const id of ['plan_nope', '999999', String(foreignPlan.id), foreignPlan.plan_id]) {
        expect((await t.http.get(`/v1/plans/${id}`).set(seller.auth).expect(404)).body).toEqual(NOT_FOUND);
        await t.http.patch(`/v1/plans/${id}`).set(seller.auth).send({ name: 'Mine' }).expect(404);
        await t.http.delete(`/v1/plans/${id}`).set(seller.auth).expect(404);
        await t.http.get(`/v1/plans/${id}/subscribers`).set(seller.auth).expect(404);
      }
      const still = await t.http.get(`/v1/plans/${foreignPlan.plan_id}`).set(other.auth).expect(200);
      expect(still.body.plan.name).toBe('Mensal');
    });
  });

  describe('DELETE /v1/plans/{id}', () => {
    it('deletes a plan whose orders are only pending or cancelled', async () => {
      const plan = await createPlan(t, seller, club.pid);
      await insertOrder(t, { storeId: seller.storeId, productId: club.id, planId: plan.id, status: 'pending' });
      await insertOrder(t, { storeId: seller.storeId, productId: club.id, planId: plan.id, status: 'cancelled' });
      const res = await t.http.delete(`/v1/plans/${plan.plan_id}`).set(seller.auth).expect(200);
      expect(res.body).toEqual({ status: 'success', message: 'Plan deleted successfully.' });
      await t.http.get(`/v1/plans/${plan.plan_id}`).set(seller.auth).expect(404);
    });

    it.each(['approved', 'refunded'])('409 when the plan has a sale in status %s', async (status) => {
      const plan = await createPlan(t, seller, club.pid);
      await insertOrder(t, { storeId: seller.storeId, productId: club.id, planId: plan.id, status });
      const res = await t.http.delete(`/v1/plans/${plan.id}`).set(seller.auth).expect(409);
      expect(res.body).toEqual({ status: 'error', message: 'This plan has one or more sales and cannot be deleted.' });
      await t.http.get(`/v1/plans/${plan.id}`).set(seller.auth).expect(200);
    });
  });

  describe('GET /v1/plans/{id}/subscribers', () => {
    it('lists approved and refunded orders, newest first, with plan and customer', async () => {
      const plan = await createPlan(t, seller, club.pid, { name: 'Semanal', interval: 'week' });
      const base = Date.parse('2025-03-01T10:00:00Z');
      const made: string[] = [];
      for (let i = 0; i < 5; i++) {
        const order = await insertOrder(t, {
          storeId: seller.storeId,
          productId: club.id,
          planId: plan.id,
          status: i === 1 ? 'refunded' : 'approved',
          createdAt: new Date(base + i * 60_000),
          email: `sub${i}@example.com`,
          amount: '250.50',
        });
        made.push(order.orderNumber);
      }
      await insertOrder(t, { storeId: seller.storeId, productId: club.id, planId: plan.id, status: 'pending' });
      await insertOrder(t, { storeId: seller.storeId, productId: club.id, planId: plan.id, status: 'cancelled' });
      const otherPlan = await createPlan(t, seller, club.pid);
      await insertOrder(t, { storeId: seller.storeId, productId: club.id, planId: otherPlan.id, status: 'approved' });

      const res = await t.http.get(`/v1/plans/${plan.plan_id}/subscribers?per_page=2`).set(seller.auth).expect(200);
      expect(res.body).toEqual({
        status: 'success',
        page: 1,
        per_page: 2,
        last_page: 3,
        total: 5,
        plan: { plan_id: plan.plan_id, name: 'Semanal', product_pid: club.pid },
        subscribers: [
          {
            order_number: made[4],
            amount: 250.5,
            currency: 'MZN',
            status: 'approved',
            customer: { name: 'Buyer sub4', email: 'sub4@example.com', mobile_number: '+258841234567' },
            created_at: '2025-03-01T10:04:00.000000Z',
            updated_at: '2025-03-01T10:04:00.000000Z',
          },
          expect.objectContaining({ order_number: made[3] }),
        ],
      });

      const last = await t.http.get(`/v1/plans/${plan.id}/subscribers?per_page=2&page=3`).set(seller.auth).expect(200);
      expect(last.body.subscribers.map((s: { order_number: string }) => s.order_number)).toEqual([made[0]]);
      const middle = await t.http
        .get(`/v1/plans/${plan.id}/subscribers?per_page=2&page=2`)
        .set(seller.auth)
        .expect(200);
      expect(middle.body.subscribers.map((s: { status: string }) => s.status)).toEqual(['approved', 'refunded']);
    });

    it('shows each subscriber as the order gave them, not as a later order of the same email did', async () => {
      const plan = await createPlan(t, seller, club.pid);
      const order = (name: string, mobile: string) =>
        t.http
          .post('/v1/orders')
          .set(seller.auth)
          .send({
            amount: 100,
            product_pid: club.pid,
            plan_id: plan.plan_id,
            customer: { name, email: 'same@example.com', mobile_number: mobile },
          })
          .expect(201);
      const first = await order('Ana Silva', '+258841111111');
      await t.dataSource.query(`UPDATE orders SET status = 'approved' WHERE order_number = $1`, [
        first.body.order_number,
      ]);
      await order('Ana Two', '+258849999999');
      const res = await t.http.get(`/v1/plans/${plan.plan_id}/subscribers`).set(seller.auth).expect(200);
      expect(res.body.subscribers).toEqual([
        expect.objectContaining({
          order_number: first.body.order_number,
          customer: { name: 'Ana Silva', email: 'same@example.com', mobile_number: '+258841111111' },
        }),
      ]);
    });

    it('answers a page past the last with an empty array', async () => {
      const plan = await createPlan(t, seller, club.pid);
      await insertOrder(t, { storeId: seller.storeId, productId: club.id, planId: plan.id, status: 'approved' });
      const res = await t.http.get(`/v1/plans/${plan.plan_id}/subscribers?page=2`).set(seller.auth).expect(200);
      expect(res.body).toMatchObject({ page: 2, per_page: 15, last_page: 1, total: 1, subscribers: [] });
    });

    it('answers a plan without subscribers with last_page 1', async () => {
      const plan = await createPlan(t, seller, club.pid);
      const res = await t.http.get(`/v1/plans/${plan.plan_id}/subscribers`).set(seller.auth).expect(200);
      expect(res.body).toMatchObject({ page: 1, per_page: 15, last_page: 1, total: 0, subscribers: [] });
    });

    it.each([
      ['per_page=0', 'per_page'],
      ['per_page=101', 'per_page'],
      ['page=0', 'page'],
      ['page=abc', 'page'],
    ])('422 for %s', async (query, field) => {
      const plan = await createPlan(t, seller, club.pid);
      const res = await t.http.get(`/v1/plans/${plan.plan_id}/subscribers?${query}`).set(seller.auth).expect(422);
      expect(res.body.message).toBe('Validation failed.');
      expect(Object.keys(res.body.errors)).toEqual([field]);
    });

    it('accepts per_page 1 and 100', async () => {
      const plan = await createPlan(t, seller, club.pid);
      await t.http.get(`/v1/plans/${plan.plan_id}/subscribers?per_page=1`).set(seller.auth).expect(200);
      await t.http.get(`/v1/plans/${plan.plan_id}/subscribers?per_page=100`).set(seller.auth).expect(200);
    });
  });

  describe('authentication and scopes', () => {
    const routes: [string, string, string][] = [
      ['post', '/v1/plans', 'plans.write'],
      ['post', '/v1/plan', 'plans.write'],
      ['get', '/v1/plans', 'plans.read'],
      ['get', '/v1/plans/1', 'plans.read'],
      ['patch', '/v1/plans/1', 'plans.write'],
      ['delete', '/v1/plans/1', 'plans.write'],
      ['get', '/v1/plans/1/subscribers', 'plans.read'],
    ];

    it.each(routes)('%s %s: 401 without a token', async (method, path) => {
      const res = await (t.http as any)[method](path).expect(401);
      expect(res.body).toEqual({ status: 'error', message: 'Token not provided' });
    });

    it.each(routes)('%s %s: 403 without %s', async (method, path, scope) => {
      const granted = [scope.endsWith('.read') ? 'plans.write' : 'plans.read', 'products.read', 'products.write'];
      const token = await seller.tokenWith(granted as any);
      const res = await (t.http as any)[method](path).set('Authorization', `Bearer ${token}`).expect(403);
      expect(res.body).toEqual(forbidden(scope, granted));
    });
  });
});
