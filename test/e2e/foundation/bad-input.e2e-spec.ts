import { createSeller, TestSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';

/**
 * "bad input never reaches a 5xx", by class: JSON nesting, strings PostgreSQL cannot
 * store, numbers past their column, path ids that cannot exist and query integers out of range,
 * each handled where input enters. fuzz.e2e-spec.ts generates the rest.
 */
describe('bad input', () => {
  let t: TestApp;
  let seller: TestSeller;
  let product: { id: number; pid: string };

  beforeAll(async () => {
    t = await createTestApp();
    seller = await createSeller(t);
    product = (await t.http.post('/v1/products').set(seller.auth).send({ name: 'Ebook', price: 100 }).expect(201)).body
      .product;
  });
  afterAll(() => t.close());

  const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
  const json = (path: string, body: string) =>
    t.http.post(path).set(seller.auth).set('Content-Type', 'application/json').send(body);

  describe('JSON nesting', () => {
    it.each(['/v1/orders', '/v1/discounts', '/v1/products', '/v1/plans', '/v1/webhooks', '/v1/oauth/token'])(
      '%s: deeper than 32 levels is 400 Malformed JSON body.',
      async (path) => {
        const res = await json(path, `{"plan_id":${nested(32)}}`).expect(400);
        // The token endpoint adds its RFC 6749 `error` (invalid_request).
        expect(res.body).toMatchObject({ status: 'error', message: 'Malformed JSON body.' });
        await json(path, nested(100_000)).expect(400);
      },
    );

    it('32 levels is still a body (the field is then a 422)', async () => {
      const res = await json('/v1/orders', `{"plan_id":${nested(31)}}`).expect(422);
      expect(res.body.errors.plan_id).toBeDefined();
    });

    it('is refused before authentication, like other malformed JSON', async () => {
      await t.http.post('/v1/orders').set('Content-Type', 'application/json').send(nested(40)).expect(400);
    });
  });

  describe('strings PostgreSQL cannot store', () => {
    const order = (customer: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
      amount: 100,
      product_pid: product.pid,
      customer: { name: 'Ana', email: 'ana@example.com', mobile_number: '+258841234567', ...customer },
      ...extra,
    });

    it('U+0000 in a nested field is a 422 on its dotted path (the fast accept path refuses it too)', async () => {
      const res = await t.http
        .post('/v1/orders')
        .set(seller.auth)
        .send(order({ name: 'An\u0000a' }))
        .expect(422);
      expect(res.body).toEqual({
        status: 'error',
        message: 'Validation failed.',
        errors: { 'customer.name': ['customer.name must not contain U+0000 or unpaired surrogates.'] },
      });
    });

    it('an unpaired surrogate is a 422 on its field', async () => {
      const res = await json(
        '/v1/orders',
        JSON.stringify(order({}, { coupon_code: 'X' })).replace('"X"', '"\\ud800"'),
      ).expect(422);
      expect(Object.keys(res.body.errors)).toEqual(['coupon_code']);
      const name = await json('/v1/products', '{"name":"a\\udc00b"}').expect(422);
      expect(Object.keys(name.body.errors)).toEqual(['name']);
    });

    it('on every JSON body: webhook name, discount code, product', async () => {
      const webhook = await t.http
        .post('/v1/webhooks')
        .set(seller.auth)
        .send({ url: 'https://example.com/h', events: ['order_approved'], name: 'a\u0000' })
        .expect(422);
      expect(Object.keys(webhook.body.errors)).toEqual(['name']);
      const discount = await t.http
        .post('/v1/discounts')
        .set(seller.auth)
        .send({ code: 'A\u0000', type: 'fixed', value: 5 })
        .expect(422);
      expect(Object.keys(discount.body.errors)).toEqual(['code']);
    });

    it('on the token endpoint, JSON and form alike (with its invalid_request there)', async () => {
      const asJson = await t.http
        .post('/v1/oauth/token')
        .send({ grant_type: 'authorization_code', client_id: 'a\u0000b' })
        .expect(422);
      expect(asJson.body.error).toBe('invalid_request');
      expect(Object.keys(asJson.body.errors)).toEqual(['client_id']);
      const asForm = await t.http
        .post('/v1/oauth/token')
        .type('form')
        .send('grant_type=authorization_code&client_id=a%00b')
        .expect(422);
      expect(Object.keys(asForm.body.errors)).toEqual(['client_id']);
    });

    it('in a query parameter', async () => {
      const res = await t.http.get('/v1/customers?email=a%00b').set(seller.auth).expect(422);
      expect(Object.keys(res.body.errors)).toEqual(['email']);
    });

    it('comes after authentication (in the order the contract checks)', async () => {
      await t.http
        .post('/v1/orders')
        .send(order({ name: '\u0000' }))
        .expect(401);
    });
  });

  describe('numbers past their column', () => {
    it('an integer field holds an int4', async () => {
      const res = await json(
        '/v1/orders',
        JSON.stringify({
          amount: 100,
          product_pid: product.pid,
          customer: { name: 'A', email: 'a@b.co', mobile_number: '+258841234567' },
          affiliate_id: 1,
        }).replace('"affiliate_id":1', '"affiliate_id":1e308'),
      ).expect(422);
      expect(res.body.errors).toEqual({ affiliate_id: ['affiliate_id must be at most 2147483647.'] });
    });

    it('a number field holds numeric(12,2)', async () => {
      const res = await t.http
        .post('/v1/orders')
        .set(seller.auth)
        .send({
          amount: 1e15,
          product_pid: product.pid,
          customer: { name: 'A', email: 'a@b.co', mobile_number: '+258841234567' },
        })
        .expect(422);
      expect(Object.keys(res.body.errors)).toEqual(['amount']);
    });

    it('a number too small for two decimals is a 422, not a crash of the decimals check', async () => {
      const res = await json('/v1/products', '{"name":"x","price":0.0000000000000000000000001}').expect(422);
      expect(res.body.errors).toEqual({ price: ['price has more decimals than it can hold.'] });
    });
  });

  describe('null where the description allows none', () => {
    it('is a wrong value (422, its type) in an optional field, never written: a PATCH of a webhook', async () => {
      const hook = await t.http
        .post('/v1/webhooks')
        .set(seller.auth)
        .send({ url: 'https://example.com/hook', events: ['order_approved'], name: null, product_details: null })
        .expect(201);
      const id = hook.body.webhook.id;
      for (const [field, message] of [
        ['url', 'url must be a string.'],
        ['events', 'events must be an array.'],
        ['status', 'status must be active or inactive.'],
      ]) {
        const res = await t.http
          .patch(`/v1/webhooks/${id}`)
          .set(seller.auth)
          .send({ [field]: null })
          .expect(422);
        expect(res.body.errors).toEqual({ [field]: [message] });
      }
      // A nullable one still takes it.
      await t.http.patch(`/v1/webhooks/${id}`).set(seller.auth).send({ name: null, product_details: null }).expect(200);
    });

    it('in a plan, either product reference: 422 on it, not a 500', async () => {
      const base = { name: 'Monthly', price: 10, interval: 'month' };
      const pid = await t.http
        .post('/v1/plans')
        .set(seller.auth)
        .send({ ...base, product_pid: null })
        .expect(422);
      expect(pid.body.errors.product_pid).toEqual(['product_pid must be a string.']);
      const id = await t.http
        .post('/v1/plans')
        .set(seller.auth)
        .send({ ...base, product_pid: product.pid, product_id: null })
        .expect(422);
      expect(id.body.errors).toEqual({ product_id: ['product_id must be an integer.'] });
    });

    it('in a required field is "<field> is required.", whatever its rules (a URL, an email)', async () => {
      const hook = await t.http.post('/v1/webhooks').set(seller.auth).send({ url: null, events: null }).expect(422);
      expect(hook.body.errors).toEqual({ url: ['url is required.'], events: ['events is required.'] });
      const affiliate = await t.http
        .post('/v1/affiliates')
        .set(seller.auth)
        .send({ name: 'Joana', email: null, commission_percent: 10 })
        .expect(422);
      expect(affiliate.body.errors).toEqual({ email: ['email is required.'] });
    });

    it('a price of the wrong type is told its type alone, then its decimals', async () => {
      const text = await t.http.post('/v1/products').set(seller.auth).send({ name: 'x', price: '12.50' }).expect(422);
      expect(text.body.errors).toEqual({ price: ['price must be a number.'] });
      const decimals = await t.http
        .post('/v1/products')
        .set(seller.auth)
        .send({ name: 'x', price: 12.345 })
        .expect(422);
      expect(decimals.body.errors).toEqual({ price: ['price must have at most two decimals.'] });
    });
  });

  describe('path ids that cannot exist', () => {
    it.each([
      ['GET', '/v1/products/%00'],
      ['GET', '/v1/products/a%00b/files'],
      ['DELETE', '/v1/products/1%00/files/1'],
      ['GET', '/v1/discounts/%00'],
      ['GET', '/v1/orders/%00'],
      ['GET', '/v1/plans/%00'],
      ['POST', '/v1/products/%00/publish'],
      ['GET', '/v1/products/%FF'],
      ['GET', '/v1/products/%ED%A0%80'],
      ['GET', '/v1/products/%C3%28'],
      ['GET', '/v1/products/2147483648'],
      ['GET', '/v1/orders/99999999999999999999'],
      ['GET', '/v1/webhooks/2147483648'],
    ])('%s %s is the 404 of that resource', async (method, path) => {
      const res = await t.http[method.toLowerCase() as 'get'](path).set(seller.auth).expect(404);
      expect(res.body.status).toBe('error');
      expect(res.body.message).toMatch(/not found\.$/);
    });

    it('a multipart upload with an invalid UTF-8 product id is a 404, and nothing is read or stored', async () => {
      const res = await t.http
        .post('/v1/products/%C3%28/files')
        .set(seller.auth)
        .attach('file', Buffer.from('%PDF-1.4'), 'a.pdf')
        .expect(404);
      expect(res.body).toEqual({ status: 'error', message: 'Resource not found.' });
    });

    it('an id of 5,000 characters is the 404 of its resource too, not a 414 of the router', async () => {
      const discount = await t.http
        .get(`/v1/discounts/${'a'.repeat(5000)}`)
        .set(seller.auth)
        .expect(404);
      expect(discount.body).toEqual({ status: 'error', message: 'Resource not found.' });
      const file = await t.http
        .delete(`/v1/products/1/files/${'9'.repeat(5000)}`)
        .set(seller.auth)
        .expect(404);
      expect(file.body.status).toBe('error');
    });

    it('still needs a token first (401 before 404)', async () => {
      await t.http.get('/v1/products/%00').expect(401);
      await t.http.get(`/v1/products/${'a'.repeat(5000)}`).expect(401);
    });

    it('the checkout page of an impossible token is its HTML 404 page', async () => {
      const res = await t.http.get('/pay/token/%FF').expect(404);
      expect(res.headers['content-type']).toMatch(/text\/html/);
    });
  });

  describe('query integers', () => {
    it.each(['99999999999999999999', '2147483648', '1e309'])('page=%s is a 422 on page', async (page) => {
      const res = await t.http.get(`/v1/orders?page=${page}`).set(seller.auth).expect(422);
      expect(Object.keys(res.body.errors)).toEqual(['page']);
    });

    it('a filter id past int4 is a 422 on it', async () => {
      const res = await t.http.get('/v1/orders?customer=99999999999999999999').set(seller.auth).expect(422);
      expect(Object.keys(res.body.errors)).toEqual(['customer']);
    });

    it('the largest page is still a page', async () => {
      const res = await t.http.get('/v1/orders?page=2147483647&per_page=100').set(seller.auth).expect(200);
      expect(res.body.orders).toEqual([]);
    });
  });
});
