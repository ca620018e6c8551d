import { IdempotencyRepository } from '../../../src/common/idempotency/idempotency.repository';
import { createSeller, TestSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';
import { createOrder, customer, insertProduct, orderBody, payJson } from './fixtures';

describe('customers and idempotency keys', () => {
  let t: TestApp;
  let seller: TestSeller;
  let product: { id: number; pid: string };

  beforeAll(async () => {
    t = await createTestApp();
    seller = await createSeller(t);
    product = await insertProduct(t, seller.storeId);
  });
  afterAll(() => t.close());

  describe('customers', () => {
    let ana: number;
    let other: TestSeller;
    let foreignCustomer: number;

    beforeAll(async () => {
      const first = await createOrder(
        t,
        seller,
        orderBody(product.pid, { customer: customer('ana@example.com'), amount: 100 }),
      );
      await createOrder(t, seller, orderBody(product.pid, { customer: customer('ANA@example.com'), amount: 120 }));
      await createOrder(t, seller, orderBody(product.pid, { customer: customer('bob@example.com') }));
      await payJson(t, first.pay_token, { payment_method: 'mpesa', payment_number: '841234567' }).expect(200);
      const list = await t.http.get('/v1/customers?email=ana@example.com').set(seller.auth).expect(200);
      ana = list.body.customers[0].id;
      other = await createSeller(t);
      const otherProduct = await insertProduct(t, other.storeId);
      await createOrder(t, other, orderBody(otherProduct.pid, { customer: customer('ana@example.com') }));
      foreignCustomer = (await t.http.get('/v1/customers').set(other.auth)).body.customers[0].id;
    });

    it('lists the store customers with the envelope, newest first', async () => {
      const res = await t.http.get('/v1/customers').set(seller.auth).expect(200);
      expect(res.body).toMatchObject({ status: 'success', page: 1, per_page: 15, last_page: 1, total: 2 });
      expect(res.body.customers.map((c: { email: string }) => c.email)).toEqual(['bob@example.com', 'ana@example.com']);
      expect(res.body.customers[1]).toEqual({
        id: ana,
        name: 'Ana Buyer',
        email: 'ana@example.com',
        mobile_number: '+258841234567',
        payment_number: null,
        created_at: expect.stringMatching(/\.\d{6}Z$/),
        updated_at: expect.stringMatching(/\.\d{6}Z$/),
      });
    });

    it('gets one customer; 404 Resource not found. for a foreign or unknown id', async () => {
      expect((await t.http.get(`/v1/customers/${ana}`).set(seller.auth).expect(200)).body).toMatchObject({
        status: 'success',
        customer: { id: ana },
      });
      for (const id of [foreignCustomer, 999999, 'abc']) {
        expect((await t.http.get(`/v1/customers/${id}`).set(seller.auth).expect(404)).body).toEqual({
          status: 'error',
          message: 'Resource not found.',
        });
      }
    });

    it("lists only that customer's orders with status filter and pagination", async () => {
      const res = await t.http.get(`/v1/customers/${ana}/orders`).set(seller.auth).expect(200);
      expect(res.body).toMatchObject({ status: 'success', page: 1, per_page: 15, last_page: 1, total: 2 });
      expect(res.body.orders).toHaveLength(2);
      expect(res.body.orders[0]).toEqual({
        id: expect.any(Number),
        order_number: expect.any(String),
        amount: 120,
        currency: 'MZN',
        status: 'pending',
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      const approved = await t.http.get(`/v1/customers/${ana}/orders?status=approved`).set(seller.auth).expect(200);
      expect(approved.body.orders.map((o: { amount: number }) => o.amount)).toEqual([100]);
      const page2 = await t.http.get(`/v1/customers/${ana}/orders?per_page=1&page=2`).set(seller.auth).expect(200);
      expect(page2.body).toMatchObject({ page: 2, per_page: 1, last_page: 2, total: 2, orders: [{ amount: 100 }] });
      const past = await t.http.get(`/v1/customers/${ana}/orders?page=9`).set(seller.auth).expect(200);
      expect(past.body).toMatchObject({ page: 9, last_page: 1, total: 2, orders: [] });
      const none = await t.http.get(`/v1/customers/${ana}/orders?status=refunded`).set(seller.auth).expect(200);
      expect(none.body).toEqual({ status: 'success', page: 1, per_page: 15, last_page: 1, total: 0, orders: [] });
    });

    it('422 on a bad status or page size; 404 No orders found for this customer. for a foreign or unknown one', async () => {
      expect(
        (await t.http.get(`/v1/customers/${ana}/orders?status=paid`).set(seller.auth).expect(422)).body.errors,
      ).toHaveProperty('status');
      expect(
        (await t.http.get(`/v1/customers/${ana}/orders?per_page=0`).set(seller.auth).expect(422)).body.errors,
      ).toHaveProperty('per_page');
      for (const id of [foreignCustomer, 999999]) {
        const res = await t.http.get(`/v1/customers/${id}/orders`).set(seller.auth).expect(404);
        expect(res.body).toEqual({ status: 'error', message: 'No orders found for this customer.' });
      }
    });

    it('401 and 403 on every customers route', async () => {
      const ordersOnly = await createSeller(t, { scopes: ['orders.read', 'orders.write'] });
      for (const path of ['/v1/customers', `/v1/customers/${ana}`, `/v1/customers/${ana}/orders`]) {
        await t.http.get(path).expect(401);
        const res = await t.http.get(path).set(ordersOnly.auth).expect(403);
        expect(res.body).toMatchObject({ error_code: 'insufficient_scope', required_scopes: ['customers.read'] });
      }
    });
  });

  describe('Idempotency-Key', () => {
    it('replays the first response for the same key and body, creating one order', async () => {
      const body = orderBody(product.pid, { customer: customer('idem@example.com') });
      const first = await t.http
        .post('/v1/orders')
        .set(seller.auth)
        .set('Idempotency-Key', 'key-1')
        .send(body)
        .expect(201);
      expect(first.headers['idempotent-replayed']).toBeUndefined();
      const second = await t.http
        .post('/v1/orders')
        .set(seller.auth)
        .set('Idempotency-Key', 'key-1')
        .send(body)
        .expect(201);
      expect(second.headers['idempotent-replayed']).toBe('true');
      expect(second.body).toEqual(first.body);
      const rows = await t.dataSource.query(
        `SELECT count(*)::int AS n FROM orders o JOIN customers c ON c.id = o.customer_id WHERE c.email = 'idem@example.com'`,
      );
      expect(rows[0].n).toBe(1);
      // The stored answer is sealed: the pay token (kept only hashed on the order) is not readable.
      const [stored] = await t.dataSource.query(
        `SELECT jsonb_typeof(response_body) AS type, response_body::text AS text FROM idempotency_keys WHERE key = 'key-1'`,
      );
      expect(stored.type).toBe('string');
      expect(stored.text).not.toContain(first.body.pay_token);
      expect(stored.text).not.toContain(first.body.order_number);
    });

    it('replays an answer stored before answers were sealed', async () => {
      const body = orderBody(product.pid, { customer: customer('legacy@example.com') });
      const first = await t.http.post('/v1/orders').set(seller.auth).set('Idempotency-Key', 'legacy-1').send(body);
      await t.dataSource.query(`UPDATE idempotency_keys SET response_body = $1::jsonb WHERE key = 'legacy-1'`, [
        JSON.stringify(first.body),
      ]);
      const replay = await t.http
        .post('/v1/orders')
        .set(seller.auth)
        .set('Idempotency-Key', 'legacy-1')
        .send(body)
        .expect(201);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.body).toEqual(first.body);
    });

    it('an answer sealed under another DELIVERY_SECRET is neither replayed nor run again: 409', async () => {
      const body = orderBody(product.pid, { customer: customer('rotated@example.com') });
      await t.http.post('/v1/orders').set(seller.auth).set('Idempotency-Key', 'rotated-1').send(body).expect(201);
      // What a changed secret (or another host's) leaves: a sealed answer this process cannot open.
      await t.dataSource.query(
        `UPDATE idempotency_keys SET response_body = to_jsonb('AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'::text) WHERE key = 'rotated-1'`,
      );
      const again = await t.http
        .post('/v1/orders')
        .set(seller.auth)
        .set('Idempotency-Key', 'rotated-1')
        .send(body)
        .expect(409);
      expect(again.body).toEqual({
        status: 'error',
        message: 'This idempotency key was already used; its answer cannot be replayed here.',
      });
      const [{ n }] = await t.dataSource.query(
        `SELECT count(*)::int AS n FROM orders o JOIN customers c ON c.id = o.customer_id WHERE c.email = 'rotated@example.com'`,
      );
      expect(n).toBe(1);
    });

    it('422 for the same key with another body', async () => {
      const body = orderBody(product.pid);
      await t.http.post('/v1/orders').set(seller.auth).set('Idempotency-Key', 'key-2').send(body).expect(201);
      const res = await t.http
        .post('/v1/orders')
        .set(seller.auth)
        .set('Idempotency-Key', 'key-2')
        .send({ ...body, amount: 11 })
        .expect(422);
      expect(res.body).toEqual({ status: 'error', message: 'Idempotency key reused with a different request.' });
    });

    it('409 while the first request with the key is still in flight', async () => {
      const repo = t.app.get(IdempotencyRepository);
      const original = repo.complete.bind(repo);
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      repo.complete = async (...args) => {
        await gate;
        return original(...args);
      };
      try {
        const body = orderBody(product.pid);
        const first = t.http
          .post('/v1/orders')
          .set(seller.auth)
          .set('Idempotency-Key', 'key-3')
          .send(body)
          .then((r) => r);
        await new Promise((r) => setTimeout(r, 300));
        const second = await t.http
          .post('/v1/orders')
          .set(seller.auth)
          .set('Idempotency-Key', 'key-3')
          .send(body)
          .expect(409);
        expect(second.body).toEqual({
          status: 'error',
          message: 'A request with this idempotency key is still in progress.',
        });
        release();
        expect((await first).status).toBe(201);
      } finally {
        repo.complete = original;
        release();
      }
      const replay = await t.http
        .post('/v1/orders')
        .set(seller.auth)
        .set('Idempotency-Key', 'key-3')
        .send(orderBody(product.pid))
        .expect(422);
      expect(replay.body.message).toBe('Idempotency key reused with a different request.');
    });

    it('keeps keys per token, and replays a failed first request as it was answered', async () => {
      const body = orderBody(product.pid);
      await t.http.post('/v1/orders').set(seller.auth).set('Idempotency-Key', 'key-4').send(body).expect(201);
      const otherToken = await seller.tokenWith(['orders.write']);
      const res = await t.http
        .post('/v1/orders')
        .set('Authorization', `Bearer ${otherToken}`)
        .set('Idempotency-Key', 'key-4')
        .send(body)
        .expect(201);
      expect(res.headers['idempotent-replayed']).toBeUndefined();

      const bad = { ...body, product_pid: 'prd_missing' };
      const missing = await t.http.post('/v1/orders').set(seller.auth).set('Idempotency-Key', 'key-5').send(bad);
      expect(missing.status).toBe(404);
      const replayed = await t.http.post('/v1/orders').set(seller.auth).set('Idempotency-Key', 'key-5').send(bad);
      expect(replayed.status).toBe(404);
      expect(replayed.headers['idempotent-replayed']).toBe('true');
      expect(replayed.body).toEqual(missing.body);
      await t.http.post('/v1/orders').set(seller.auth).set('Idempotency-Key', 'key-5').send(body).expect(422);
    });

    it('replays a refund with its 200 and expires after 24 hours', async () => {
      const created = await createOrder(t, seller, orderBody(product.pid));
      await payJson(t, created.pay_token, { payment_method: 'mpesa', payment_number: '841234567' }).expect(200);
      const first = await t.http
        .post(`/v1/orders/${created.order_number}/refund`)
        .set(seller.auth)
        .set('Idempotency-Key', 'refund-1')
        .expect(200);
      const again = await t.http
        .post(`/v1/orders/${created.order_number}/refund`)
        .set(seller.auth)
        .set('Idempotency-Key', 'refund-1')
        .expect(200);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
      await t.dataSource.query(
        `UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = 'refund-1'`,
      );
      const expired = await t.http
        .post(`/v1/orders/${created.order_number}/refund`)
        .set(seller.auth)
        .set('Idempotency-Key', 'refund-1')
        .expect(409);
      expect(expired.body.message).toBe('Only approved orders can be refunded.');
    });
  });
});
