import { createSeller, TestSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';
import { createOrder, insertProduct, orderBody, payJson, recordEvents } from '../billing/fixtures';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

describe('Affiliates API', () => {
  let t: TestApp;
  let seller: TestSeller;
  let other: TestSeller;

  beforeAll(async () => {
    t = await createTestApp();
    seller = await createSeller(t);
    other = await createSeller(t);
  });
  afterAll(() => t.close());

  const create = (who: TestSeller, body: object) => t.http.post('/v1/affiliates').set(who.auth).send(body);

  describe('POST /v1/affiliates', () => {
    it('creates an affiliate and answers 201 with it', async () => {
      const res = await create(seller, { name: 'Joana', email: 'joana@example.com', commission_percent: 12.5 }).expect(
        201,
      );
      expect(res.body).toEqual({
        status: 'success',
        message: 'Affiliate created.',
        affiliate: {
          id: expect.any(Number),
          name: 'Joana',
          email: 'joana@example.com',
          commission_percent: 12.5,
          created_at: expect.stringMatching(TIMESTAMP),
          updated_at: expect.stringMatching(TIMESTAMP),
        },
      });
      const [row] = await t.dataSource.query('SELECT store_id, commission_percent FROM affiliates WHERE id = $1', [
        res.body.affiliate.id,
      ]);
      expect(row).toEqual({ store_id: seller.storeId, commission_percent: '12.50' });
    });

    it.each([0, 100, 33.33])('accepts commission_percent %p', async (percent) => {
      const res = await create(seller, { name: 'Edge', email: 'edge@example.com', commission_percent: percent }).expect(
        201,
      );
      expect(res.body.affiliate.commission_percent).toBe(percent);
    });

    it.each([
      [{ email: 'a@example.com', commission_percent: 10 }, ['name']],
      [{ name: '   ', email: 'a@example.com', commission_percent: 10 }, ['name']],
      [{ name: 'A', email: 'not-an-email', commission_percent: 10 }, ['email']],
      [{ name: 'A', email: 'a@example.com' }, ['commission_percent']],
      [{ name: 'A', email: 'a@example.com', commission_percent: '10' }, ['commission_percent']],
      [{ name: 'A', email: 'a@example.com', commission_percent: -0.01 }, ['commission_percent']],
      [{ name: 'A', email: 'a@example.com', commission_percent: 100.01 }, ['commission_percent']],
      [{ name: 'A', email: 'a@example.com', commission_percent: 10.005 }, ['commission_percent']],
      [{}, ['commission_percent', 'email', 'name']],
    ])('422 for %j', async (body, fields) => {
      const res = await create(seller, body).expect(422);
      expect(res.body.status).toBe('error');
      expect(res.body.message).toBe('Validation failed.');
      expect(Object.keys(res.body.errors).sort()).toEqual(fields);
      for (const field of fields) expect(res.body.errors[field][0]).toEqual(expect.any(String));
    });

    it('401 without a token', async () => {
      const res = await t.http
        .post('/v1/affiliates')
        .send({ name: 'A', email: 'a@example.com', commission_percent: 1 })
        .expect(401);
      expect(res.body).toEqual({ status: 'error', message: 'Token not provided' });
    });

    it('403 with the scope details for a read-only token, and creates nothing', async () => {
      const token = await seller.tokenWith(['affiliates.read']);
      const before = await t.dataSource.query('SELECT count(*)::int AS n FROM affiliates');
      const res = await t.http
        .post('/v1/affiliates')
        .set('Authorization', `Bearer ${token}`)
        .send({ name: 'A', email: 'a@example.com', commission_percent: 1 })
        .expect(403);
      expect(res.body).toEqual({
        status: 'error',
        message: 'Permission denied for this endpoint.',
        error_code: 'insufficient_scope',
        required_scopes: ['affiliates.write'],
        missing_scopes: ['affiliates.write'],
        granted_scopes: ['affiliates.read'],
      });
      expect(await t.dataSource.query('SELECT count(*)::int AS n FROM affiliates')).toEqual(before);
    });
  });

  describe('GET /v1/affiliates', () => {
    let lister: TestSeller;

    beforeAll(async () => {
      lister = await createSeller(t);
      for (const n of [1, 2, 3])
        await create(lister, { name: `A${n}`, email: `a${n}@example.com`, commission_percent: n }).expect(201);
      await create(other, { name: 'Foreign', email: 'f@example.com', commission_percent: 5 }).expect(201);
    });

    it("lists the store's affiliates newest first in the pagination envelope", async () => {
      const res = await t.http.get('/v1/affiliates').set(lister.auth).expect(200);
      expect(res.body).toEqual({
        status: 'success',
        page: 1,
        per_page: 15,
        last_page: 1,
        total: 3,
        affiliates: [
          expect.objectContaining({ name: 'A3', commission_percent: 3 }),
          expect.objectContaining({ name: 'A2' }),
          expect.objectContaining({ name: 'A1' }),
        ],
      });
    });

    it('pages', async () => {
      const res = await t.http.get('/v1/affiliates?page=2&per_page=2').set(lister.auth).expect(200);
      expect(res.body).toMatchObject({ page: 2, per_page: 2, last_page: 2, total: 3 });
      expect(res.body.affiliates.map((a: { name: string }) => a.name)).toEqual(['A1']);
      const past = await t.http.get('/v1/affiliates?page=9&per_page=2').set(lister.auth).expect(200);
      expect(past.body.affiliates).toEqual([]);
    });

    it('422 for per_page out of range', async () => {
      const res = await t.http.get('/v1/affiliates?per_page=101').set(lister.auth).expect(422);
      expect(Object.keys(res.body.errors)).toEqual(['per_page']);
    });

    it('403 for a write-only token (scopes are independent)', async () => {
      const token = await lister.tokenWith(['affiliates.write']);
      const res = await t.http.get('/v1/affiliates').set('Authorization', `Bearer ${token}`).expect(403);
      expect(res.body).toMatchObject({ required_scopes: ['affiliates.read'], missing_scopes: ['affiliates.read'] });
    });

    it('401 for an unknown token', async () => {
      const res = await t.http.get('/v1/affiliates').set('Authorization', 'Bearer sk_nope').expect(401);
      expect(res.body).toEqual({ status: 'error', message: 'Invalid token' });
    });
  });

  describe('GET and DELETE /v1/affiliates/{id}', () => {
    let id: number;
    let foreignId: number;

    beforeAll(async () => {
      id = (await create(seller, { name: 'Rui', email: 'rui@example.com', commission_percent: 7.25 }).expect(201)).body
        .affiliate.id;
      foreignId = (await create(other, { name: 'Other', email: 'o@example.com', commission_percent: 1 }).expect(201))
        .body.affiliate.id;
    });

    it('GET answers {status, affiliate}', async () => {
      const res = await t.http.get(`/v1/affiliates/${id}`).set(seller.auth).expect(200);
      expect(res.body).toEqual({
        status: 'success',
        affiliate: expect.objectContaining({ id, name: 'Rui', email: 'rui@example.com', commission_percent: 7.25 }),
      });
    });

    it.each(['999999', '99999999999', 'abc'])('GET 404 for id %s', async (missing) => {
      const res = await t.http.get(`/v1/affiliates/${missing}`).set(seller.auth).expect(404);
      expect(res.body).toEqual({ status: 'error', message: 'Resource not found.' });
    });

    it("GET 404 for another store's affiliate", async () => {
      const res = await t.http.get(`/v1/affiliates/${foreignId}`).set(seller.auth).expect(404);
      expect(res.body).toEqual({ status: 'error', message: 'Resource not found.' });
    });

    it('GET 403 without affiliates.read', async () => {
      const token = await seller.tokenWith(['orders.read']);
      const res = await t.http.get(`/v1/affiliates/${id}`).set('Authorization', `Bearer ${token}`).expect(403);
      expect(res.body.missing_scopes).toEqual(['affiliates.read']);
    });

    it('GET 401 for a malformed Authorization header', async () => {
      const res = await t.http.get(`/v1/affiliates/${id}`).set('Authorization', 'Token abc').expect(401);
      expect(res.body).toEqual({ status: 'error', message: 'Unauthorized user.' });
    });

    it("DELETE 404 for another store's affiliate, which stays", async () => {
      const res = await t.http.delete(`/v1/affiliates/${foreignId}`).set(seller.auth).expect(404);
      expect(res.body).toEqual({ status: 'error', message: 'Resource not found.' });
      await t.http.get(`/v1/affiliates/${foreignId}`).set(other.auth).expect(200);
    });

    it('DELETE 403 without affiliates.write', async () => {
      const token = await seller.tokenWith(['affiliates.read']);
      const res = await t.http.delete(`/v1/affiliates/${id}`).set('Authorization', `Bearer ${token}`).expect(403);
      expect(res.body.required_scopes).toEqual(['affiliates.write']);
    });

    it('DELETE 401 without a token', async () => {
      await t.http.delete(`/v1/affiliates/${id}`).expect(401);
    });

    it('DELETE removes it; a second DELETE and a GET are 404', async () => {
      const res = await t.http.delete(`/v1/affiliates/${id}`).set(seller.auth).expect(200);
      expect(res.body).toEqual({ status: 'success', message: 'Affiliate deleted.' });
      await t.http.get(`/v1/affiliates/${id}`).set(seller.auth).expect(404);
      await t.http.delete(`/v1/affiliates/${id}`).set(seller.auth).expect(404);
    });
  });

  it('a deleted affiliate leaves the API and new orders, and the orders it referred still name it', async () => {
    const created = await t.http
      .post('/v1/affiliates')
      .set(seller.auth)
      .send({ name: 'Rita Referrer', email: 'rita@example.com', commission_percent: 7.77 })
      .expect(201);
    const affiliateId = created.body.affiliate.id;
    const product = await insertProduct(t, seller.storeId);
    const order = await createOrder(t, seller, orderBody(product.pid, { amount: 123.45, affiliate_id: affiliateId }));
    await payJson(t, order.pay_token, { payment_method: 'mpesa', payment_number: '841234567' }).expect(200);

    await t.http.delete(`/v1/affiliates/${affiliateId}`).set(seller.auth).expect(200);
    await t.http.get(`/v1/affiliates/${affiliateId}`).set(seller.auth).expect(404);
    const list = await t.http.get('/v1/affiliates?per_page=100').set(seller.auth).expect(200);
    expect(list.body.affiliates.map((a: { id: number }) => a.id)).not.toContain(affiliateId);
    const refused = await t.http
      .post('/v1/orders')
      .set(seller.auth)
      .send(orderBody(product.pid, { affiliate_id: affiliateId }))
      .expect(422);
    expect(Object.keys(refused.body.errors)).toEqual(['affiliate_id']);

    const events = recordEvents(t);
    await t.http.post(`/v1/orders/${order.order_number}/refund`).set(seller.auth).expect(200);
    const refund = events.find((e) => e.kind === 'order_refund' && e.payload.order_number === order.order_number)!;
    expect(refund.payload.affiliate).toEqual([
      {
        id: affiliateId,
        name: 'Rita Referrer',
        email: 'rita@example.com',
        commission_percent: 7.77,
        commission_amount: 9.59,
      },
    ]);
  });

  it('documents every route in OpenAPI with its scope', async () => {
    const res = await t.http.get('/docs-json').expect(200);
    const paths = res.body.paths;
    expect(paths['/v1/affiliates'].post['x-required-scopes']).toEqual(['affiliates.write']);
    expect(paths['/v1/affiliates'].get['x-required-scopes']).toEqual(['affiliates.read']);
    expect(paths['/v1/affiliates/{id}'].get.responses['404']).toBeDefined();
    expect(paths['/v1/affiliates/{id}'].delete['x-required-scopes']).toEqual(['affiliates.write']);
    expect(res.body.components.schemas.CreateAffiliateDto.properties.commission_percent.example).toBe(12.5);
  });
});
