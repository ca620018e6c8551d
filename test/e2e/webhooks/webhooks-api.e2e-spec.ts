import { createSeller, TestSeller } from '../../utils/auth';
import { sentWhileDeleting } from '../../utils/product-deletion';
import { createTestApp, TestApp } from '../../utils/test-app';
import { insertProduct, TestProduct } from './helpers';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

describe('Webhooks API', () => {
  let t: TestApp;
  let seller: TestSeller;
  let other: TestSeller;
  let product: TestProduct;
  let otherProduct: TestProduct;

  beforeAll(async () => {
    t = await createTestApp();
    seller = await createSeller(t);
    other = await createSeller(t);
    product = await insertProduct(t.dataSource, seller.storeId, { name: 'Photography course' });
    otherProduct = await insertProduct(t.dataSource, other.storeId);
  });
  afterAll(() => t.close());

  const create = (who: TestSeller, body: object) => t.http.post('/v1/webhooks').set(who.auth).send(body);

  describe('POST /v1/webhooks', () => {
    it('creates a webhook for every product with a whsec_ secret and an empty summary', async () => {
      const res = await create(seller, {
        url: 'https://example.com/hooks',
        events: ['order_approved', 'order_refund'],
        name: 'CRM',
      }).expect(201);
      expect(res.body).toEqual({
        status: 'success',
        message: 'Webhook created.',
        webhook: {
          id: expect.any(Number),
          name: 'CRM',
          url: 'https://example.com/hooks',
          events: ['order_approved', 'order_refund'],
          product: null,
          status: 'active',
          secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
          summary: { last_delivery_at: null, last_delivery_status: null, last_response_code: null },
          created_at: expect.stringMatching(TIMESTAMP),
          updated_at: expect.stringMatching(TIMESTAMP),
        },
      });
    });

    it('limits a webhook to a product given by id or by pid', async () => {
      const byId = await create(seller, {
        url: 'https://example.com/a',
        events: ['order_cancelled'],
        product_details: product.id,
      }).expect(201);
      expect(byId.body.webhook.product).toEqual({ id: product.id, pid: product.pid, name: 'Photography course' });
      expect(byId.body.webhook.name).toBeNull();
      const byPid = await create(seller, {
        url: 'https://example.com/b',
        events: ['order_cancelled'],
        product_details: product.pid,
      }).expect(201);
      expect(byPid.body.webhook.product).toEqual({ id: product.id, pid: product.pid, name: 'Photography course' });
      const numericString = await create(seller, {
        url: 'https://example.com/c',
        events: ['order_approved'],
        product_details: String(product.id),
      }).expect(201);
      expect(numericString.body.webhook.product.id).toBe(product.id);
    });

    it('gives each webhook its own secret', async () => {
      const a = await create(seller, { url: 'https://example.com/same', events: ['order_approved'] }).expect(201);
      const b = await create(seller, { url: 'https://example.com/same', events: ['order_approved'] }).expect(201);
      expect(a.body.webhook.secret).not.toBe(b.body.webhook.secret);
    });

    it('422 for a product of another store, or one that does not exist', async () => {
      for (const ref of [otherProduct.id, otherProduct.pid, 999999, 3000000000, '99999999999', 'prd_nope']) {
        const res = await create(seller, {
          url: 'https://example.com/x',
          events: ['order_approved'],
          product_details: ref,
        }).expect(422);
        expect(res.body).toEqual({
          status: 'error',
          message: 'Validation failed.',
          errors: { product_details: ['product_details must be the id or pid of a product of this store.'] },
        });
      }
    });

    it('a product whose deletion is under way: waits for it, then 422; the PATCH likewise', async () => {
      const hook = await create(seller, { url: 'https://example.com/race', events: ['order_approved'] }).expect(201);
      for (const send of [
        (id: number) =>
          create(seller, { url: 'https://example.com/race', events: ['order_approved'], product_details: id }),
        (id: number) =>
          t.http.patch(`/v1/webhooks/${hook.body.webhook.id}`).set(seller.auth).send({ product_details: id }),
      ]) {
        const doomed = await insertProduct(t.dataSource, seller.storeId);
        const res = await sentWhileDeleting(t.dataSource, doomed.id, () => send(doomed.id).then((answer) => answer));
        expect({ status: res.status, body: res.body }).toEqual({
          status: 422,
          body: {
            status: 'error',
            message: 'Validation failed.',
            errors: { product_details: ['product_details must be the id or pid of a product of this store.'] },
          },
        });
      }
      const after = await t.http.get(`/v1/webhooks/${hook.body.webhook.id}`).set(seller.auth).expect(200);
      expect(after.body.webhook.product).toBeNull();
    });

    it('a PATCH of a webhook limited to a product being deleted waits for it, then 404: never written back', async () => {
      const doomed = await insertProduct(t.dataSource, seller.storeId);
      const limited = await create(seller, {
        url: 'https://example.com/limited',
        events: ['order_approved'],
        product_details: doomed.id,
      }).expect(201);
      const res = await sentWhileDeleting(t.dataSource, doomed.id, () =>
        t.http
          .patch(`/v1/webhooks/${limited.body.webhook.id}`)
          .set(seller.auth)
          .send({ name: 'Renamed' })
          .then((answer) => answer),
      );
      expect({ status: res.status, body: res.body }).toEqual({
        status: 404,
        body: { status: 'error', message: 'Resource not found.' },
      });
      const row = (await t.dataSource.query(`SELECT name FROM webhooks WHERE id = $1`, [limited.body.webhook.id])) as {
        name: string | null;
      }[];
      expect(row.map((r) => r.name)).not.toContain('Renamed');
    });

    it('422 with field errors for a bad url, events and name', async () => {
      const res = await create(seller, {
        url: 'ftp://example.com/x',
        events: ['order_shipped'],
        name: 42,
        product_details: true,
      }).expect(422);
      expect(res.body.message).toBe('Validation failed.');
      expect(Object.keys(res.body.errors).sort()).toEqual(['events', 'name', 'product_details', 'url']);

      const empty = await create(seller, { url: 'https://example.com/x', events: [] }).expect(422);
      expect(empty.body.errors).toEqual({ events: ['events must not be empty.'] });

      const missing = await create(seller, {}).expect(422);
      expect(Object.keys(missing.body.errors).sort()).toEqual(['events', 'url']);

      const notUrl = await create(seller, { url: 'not a url', events: ['order_approved'] }).expect(422);
      expect(notUrl.body.errors).toEqual({ url: ['url must be a valid http(s) URL.'] });
    });

    it('accepts a local URL outside production', async () => {
      await create(seller, { url: 'http://127.0.0.1:9/hook', events: ['order_approved'] }).expect(201);
    });

    it('401 without a token, 403 with the scope details without webhooks.write', async () => {
      expect((await t.http.post('/v1/webhooks').send({}).expect(401)).body).toEqual({
        status: 'error',
        message: 'Token not provided',
      });
      const token = await seller.tokenWith(['webhooks.read']);
      const res = await t.http.post('/v1/webhooks').set('Authorization', `Bearer ${token}`).send({}).expect(403);
      expect(res.body).toEqual({
        status: 'error',
        message: 'Permission denied for this endpoint.',
        error_code: 'insufficient_scope',
        required_scopes: ['webhooks.write'],
        missing_scopes: ['webhooks.write'],
        granted_scopes: ['webhooks.read'],
      });
    });
  });

  describe('GET /v1/webhooks and /v1/webhooks/{id}', () => {
    it("lists only the store's webhooks, newest first, paginated", async () => {
      const mine = await create(other, { url: 'https://example.org/only-mine', events: ['order_approved'] }).expect(
        201,
      );
      const res = await t.http.get('/v1/webhooks?per_page=2').set(other.auth).expect(200);
      expect(res.body).toEqual({
        status: 'success',
        page: 1,
        per_page: 2,
        last_page: 1,
        total: 1,
        webhooks: [mine.body.webhook],
      });

      const page = await t.http.get('/v1/webhooks?page=2&per_page=2').set(seller.auth).expect(200);
      expect(page.body.total).toBeGreaterThan(4);
      expect(page.body.webhooks).toHaveLength(2);
      const first = await t.http.get('/v1/webhooks?per_page=100').set(seller.auth).expect(200);
      const ids = first.body.webhooks.map((w: { id: number }) => w.id);
      expect(ids).toEqual([...ids].sort((a, b) => b - a));
      expect(ids).not.toContain(mine.body.webhook.id);

      // The status filter: only those of it; another value is a 422 on it.
      await t.http
        .patch(`/v1/webhooks/${mine.body.webhook.id}`)
        .set(other.auth)
        .send({ status: 'inactive' })
        .expect(200);
      const inactive = await t.http.get('/v1/webhooks?status=inactive').set(other.auth).expect(200);
      expect(inactive.body.webhooks.map((w: { id: number }) => w.id)).toEqual([mine.body.webhook.id]);
      expect((await t.http.get('/v1/webhooks?status=active').set(other.auth).expect(200)).body.total).toBe(0);
      const bogus = await t.http.get('/v1/webhooks?status=bogus').set(other.auth).expect(422);
      expect(bogus.body.errors).toEqual({ status: ['status must be active or inactive.'] });
    });

    it('422 for a page out of range', async () => {
      const res = await t.http.get('/v1/webhooks?per_page=101').set(seller.auth).expect(422);
      expect(res.body.errors).toEqual({ per_page: ['per_page must be at most 100.'] });
    });

    it("gets one webhook; 404 for another store's id, a missing id and a non-numeric id", async () => {
      const created = await create(seller, { url: 'https://example.com/get', events: ['order_approved'] }).expect(201);
      const res = await t.http.get(`/v1/webhooks/${created.body.webhook.id}`).set(seller.auth).expect(200);
      expect(res.body).toEqual({ status: 'success', webhook: created.body.webhook });

      const foreign = await create(other, { url: 'https://example.org/x', events: ['order_approved'] }).expect(201);
      for (const id of [foreign.body.webhook.id, 999999, 'abc']) {
        const missing = await t.http.get(`/v1/webhooks/${id}`).set(seller.auth).expect(404);
        expect(missing.body).toEqual({ status: 'error', message: 'Resource not found.' });
      }
    });

    it('401 and 403 (webhooks.write does not grant read)', async () => {
      expect((await t.http.get('/v1/webhooks').set('Authorization', 'Bearer sk_nope').expect(401)).body.message).toBe(
        'Invalid token',
      );
      const token = await seller.tokenWith(['webhooks.write']);
      const res = await t.http.get('/v1/webhooks/1').set('Authorization', `Bearer ${token}`).expect(403);
      expect(res.body.required_scopes).toEqual(['webhooks.read']);
      await t.http.get('/v1/webhooks').set('Authorization', `Bearer ${token}`).expect(403);
    });
  });

  describe('PATCH /v1/webhooks/{id}', () => {
    it('changes only the fields sent, and clears the product with null', async () => {
      const created = await create(seller, {
        url: 'https://example.com/p',
        events: ['order_approved'],
        product_details: product.pid,
        name: 'n',
      }).expect(201);
      const id = created.body.webhook.id;
      const res = await t.http
        .patch(`/v1/webhooks/${id}`)
        .set(seller.auth)
        .send({ events: ['order_cancelled', 'order_refund'], status: 'inactive' })
        .expect(200);
      expect(res.body).toEqual({
        status: 'success',
        message: 'Webhook updated.',
        webhook: {
          ...created.body.webhook,
          events: ['order_cancelled', 'order_refund'],
          status: 'inactive',
          updated_at: expect.stringMatching(TIMESTAMP),
        },
      });
      const cleared = await t.http
        .patch(`/v1/webhooks/${id}`)
        .set(seller.auth)
        .send({ product_details: null, name: null, url: 'https://example.com/q' })
        .expect(200);
      expect(cleared.body.webhook).toMatchObject({
        product: null,
        name: null,
        url: 'https://example.com/q',
        secret: created.body.webhook.secret,
      });
      const again = await t.http
        .patch(`/v1/webhooks/${id}`)
        .set(seller.auth)
        .send({ product_details: product.id })
        .expect(200);
      expect(again.body.webhook.product.pid).toBe(product.pid);
    });

    it("422 for bad fields, 404 for another store's webhook, 403 without write", async () => {
      const created = await create(seller, { url: 'https://example.com/p2', events: ['order_approved'] }).expect(201);
      const id = created.body.webhook.id;
      const bad = await t.http
        .patch(`/v1/webhooks/${id}`)
        .set(seller.auth)
        .send({ events: [], status: 'paused', url: 'x' })
        .expect(422);
      expect(Object.keys(bad.body.errors).sort()).toEqual(['events', 'status', 'url']);
      const foreignProduct = await t.http
        .patch(`/v1/webhooks/${id}`)
        .set(seller.auth)
        .send({ product_details: otherProduct.pid })
        .expect(422);
      expect(Object.keys(foreignProduct.body.errors)).toEqual(['product_details']);

      const foreign = await t.http.patch(`/v1/webhooks/${id}`).set(other.auth).send({ name: 'mine now' }).expect(404);
      expect(foreign.body).toEqual({ status: 'error', message: 'Resource not found.' });
      const token = await seller.tokenWith(['webhooks.read']);
      await t.http.patch(`/v1/webhooks/${id}`).set('Authorization', `Bearer ${token}`).send({}).expect(403);
      await t.http.patch(`/v1/webhooks/${id}`).send({}).expect(401);
    });
  });

  describe('DELETE /v1/webhooks/{id}', () => {
    it("deletes; afterwards 404; another store's id is 404 and stays", async () => {
      const created = await create(seller, { url: 'https://example.com/d', events: ['order_approved'] }).expect(201);
      const id = created.body.webhook.id;
      await t.http.delete(`/v1/webhooks/${id}`).set(other.auth).expect(404);
      const res = await t.http.delete(`/v1/webhooks/${id}`).set(seller.auth).expect(200);
      expect(res.body).toEqual({
        status: 'success',
        message: 'Webhook deleted.',
        data: { id, url: 'https://example.com/d' },
      });
      await t.http.get(`/v1/webhooks/${id}`).set(seller.auth).expect(404);
      await t.http.delete(`/v1/webhooks/${id}`).set(seller.auth).expect(404);
    });

    it('401 and 403', async () => {
      await t.http.delete('/v1/webhooks/1').expect(401);
      const token = await seller.tokenWith(['webhooks.read']);
      await t.http.delete('/v1/webhooks/1').set('Authorization', `Bearer ${token}`).expect(403);
    });
  });

  describe('deliveries routes', () => {
    it('an empty log for a new webhook; 404 for another store; 401/403', async () => {
      const created = await create(seller, { url: 'https://example.com/log', events: ['order_approved'] }).expect(201);
      const id = created.body.webhook.id;
      const res = await t.http.get(`/v1/webhooks/${id}/deliveries`).set(seller.auth).expect(200);
      expect(res.body).toEqual({ status: 'success', page: 1, per_page: 15, last_page: 1, total: 0, deliveries: [] });
      await t.http.get(`/v1/webhooks/${id}/deliveries`).set(other.auth).expect(404);
      await t.http.get(`/v1/webhooks/${id}/deliveries`).expect(401);
      const write = await seller.tokenWith(['webhooks.write']);
      await t.http.get(`/v1/webhooks/${id}/deliveries`).set('Authorization', `Bearer ${write}`).expect(403);

      await t.http.post(`/v1/webhooks/${id}/deliveries/1/redeliver`).set(seller.auth).expect(404);
      await t.http.post(`/v1/webhooks/${id}/deliveries/1/redeliver`).expect(401);
      const read = await seller.tokenWith(['webhooks.read']);
      await t.http.post(`/v1/webhooks/${id}/deliveries/1/redeliver`).set('Authorization', `Bearer ${read}`).expect(403);
    });
  });

  it('documents every route in OpenAPI with the webhooks scopes', async () => {
    const doc = (await t.http.get('/docs-json').expect(200)).body;
    const paths = Object.keys(doc.paths).filter((p) => p.startsWith('/v1/webhooks'));
    expect(paths.sort()).toEqual([
      '/v1/webhooks',
      '/v1/webhooks/{id}',
      '/v1/webhooks/{id}/deliveries',
      '/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver',
      '/v1/webhooks/{id}/test',
    ]);
    expect(doc.paths['/v1/webhooks'].post['x-required-scopes']).toEqual(['webhooks.write']);
    expect(doc.paths['/v1/webhooks/{id}'].get['x-required-scopes']).toEqual(['webhooks.read']);
    expect(doc.components.schemas.CreateWebhookDto.properties.events.example).toEqual([
      'order_approved',
      'order_cancelled',
    ]);
  });
});
