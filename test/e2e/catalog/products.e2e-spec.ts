import { createSeller, TestSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';
import {
  addLinkFile,
  COMPLETE_PRODUCT,
  createPlan,
  createProduct,
  forbidden,
  insertOrder,
  NOT_FOUND,
} from './catalog-fixtures';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

describe('Products', () => {
  let t: TestApp;
  let seller: TestSeller;
  let other: TestSeller;

  beforeAll(async () => {
    t = await createTestApp();
    seller = await createSeller(t);
    other = await createSeller(t, { currency: 'USD' });
  });
  afterAll(() => t.close());

  describe('POST /v1/products', () => {
    it('creates a product from a name alone, in draft, with the store currency', async () => {
      const res = await t.http.post('/v1/products').set(seller.auth).send({ name: 'Ebook' }).expect(201);
      expect(res.body).toEqual({
        status: 'success',
        message: 'Product created successfully.',
        product: {
          id: expect.any(Number),
          pid: expect.stringMatching(/^prod_[0-9A-Za-z]{16}$/),
          name: 'Ebook',
          type: 'one_time',
          price: null,
          currency: 'MZN',
          description: null,
          sale_page_url: null,
          image_url: null,
          category: null,
          subcategory: null,
          contact_number: null,
          status_2: 'draft',
          license_keys: { enabled: false, activation_limit: null },
          created_at: expect.stringMatching(TIMESTAMP),
          updated_at: expect.stringMatching(TIMESTAMP),
        },
      });
    });

    it('keeps every field (README, *Choices where the contract is silent*), money exact', async () => {
      const res = await t.http
        .post('/v1/products')
        .set(seller.auth)
        .send({ ...COMPLETE_PRODUCT, type: 'recurring', price: 1234.56, description: 'Completo' })
        .expect(201);
      expect(res.body.product).toMatchObject({
        ...COMPLETE_PRODUCT,
        type: 'recurring',
        price: 1234.56,
        description: 'Completo',
      });
    });

    it('gives each product its own pid', async () => {
      const a = await createProduct(t, seller);
      const b = await createProduct(t, seller);
      expect(a.pid).not.toBe(b.pid);
    });

    it('422 with field errors', async () => {
      const res = await t.http
        .post('/v1/products')
        .set(seller.auth)
        .send({ type: 'weekly', price: 10.555, image_url: 'not a url', contact_number: 'call me' })
        .expect(422);
      expect(res.body.message).toBe('Validation failed.');
      expect(Object.keys(res.body.errors).sort()).toEqual(['contact_number', 'image_url', 'name', 'price', 'type']);
    });

    it('422 for a price given as a string', async () => {
      const res = await t.http.post('/v1/products').set(seller.auth).send({ name: 'A', price: '100' }).expect(422);
      expect(res.body.errors.price).toBeDefined();
    });
  });

  describe('GET /v1/products and /v1/products/{id}', () => {
    it('lists the store products newest first in the pagination envelope, never another store', async () => {
      const fresh = await createTestApp();
      try {
        const a = await createSeller(fresh);
        const b = await createSeller(fresh);
        const first = await createProduct(fresh, a, { name: 'First' });
        const second = await createProduct(fresh, a, { name: 'Second' });
        await createProduct(fresh, b, { name: 'Foreign' });
        const res = await fresh.http.get('/v1/products?per_page=1').set(a.auth).expect(200);
        expect(res.body).toMatchObject({ status: 'success', page: 1, per_page: 1, last_page: 2, total: 2 });
        expect(res.body.products.map((p: { id: number }) => p.id)).toEqual([second.id]);
        const page2 = await fresh.http.get('/v1/products?per_page=1&page=2').set(a.auth).expect(200);
        expect(page2.body.products.map((p: { id: number }) => p.id)).toEqual([first.id]);
        const past = await fresh.http.get('/v1/products?page=9').set(a.auth).expect(200);
        expect(past.body.products).toEqual([]);
      } finally {
        await fresh.close();
      }
    });

    it('422 for per_page out of range', async () => {
      const res = await t.http.get('/v1/products?per_page=101').set(seller.auth).expect(422);
      expect(res.body.errors.per_page).toBeDefined();
    });

    it('finds a product by id and by pid', async () => {
      const product = await createProduct(t, seller, { name: 'Lookup' });
      const byId = await t.http.get(`/v1/products/${product.id}`).set(seller.auth).expect(200);
      const byPid = await t.http.get(`/v1/products/${product.pid}`).set(seller.auth).expect(200);
      expect(byId.body).toEqual({ status: 'success', product });
      expect(byPid.body).toEqual(byId.body);
    });

    it('404 for an unknown id, an unknown pid, an id too large for int4 and another store product', async () => {
      const foreign = await createProduct(t, other);
      for (const id of ['999999', 'prod_doesnotexist00', '99999999999', String(foreign.id), foreign.pid]) {
        const res = await t.http.get(`/v1/products/${id}`).set(seller.auth).expect(404);
        expect(res.body).toEqual(NOT_FOUND);
      }
    });
  });

  describe('PATCH /v1/products/{id}', () => {
    it('updates the given fields, null clears an optional one', async () => {
      const product = await createProduct(t, seller, { ...COMPLETE_PRODUCT });
      const res = await t.http
        .patch(`/v1/products/${product.pid}`)
        .set(seller.auth)
        .send({ name: 'Renamed', image_url: null, price: 99.9 })
        .expect(200);
      expect(res.body.message).toBe('Product updated successfully.');
      expect(res.body.product).toMatchObject({ name: 'Renamed', image_url: null, price: 99.9, category: 'Educação' });
      const again = await t.http.get(`/v1/products/${product.id}`).set(seller.auth).expect(200);
      expect(again.body.product.name).toBe('Renamed');
    });

    it('422 for a null name or type', async () => {
      const product = await createProduct(t, seller);
      const res = await t.http
        .patch(`/v1/products/${product.id}`)
        .set(seller.auth)
        .send({ name: null, type: null })
        .expect(422);
      expect(Object.keys(res.body.errors).sort()).toEqual(['name', 'type']);
    });

    it('422 when a recurring product with plans would become one_time', async () => {
      const product = await createProduct(t, seller, { name: 'Club', type: 'recurring' });
      await createPlan(t, seller, product.pid);
      const res = await t.http
        .patch(`/v1/products/${product.id}`)
        .set(seller.auth)
        .send({ type: 'one_time' })
        .expect(422);
      expect(res.body.errors.type).toBeDefined();
    });

    it('404 for another store product', async () => {
      const foreign = await createProduct(t, other);
      await t.http.patch(`/v1/products/${foreign.pid}`).set(seller.auth).send({ name: 'Mine' }).expect(404);
      const still = await t.http.get(`/v1/products/${foreign.pid}`).set(other.auth).expect(200);
      expect(still.body.product.name).toBe('Ebook');
    });
  });

  describe('DELETE /v1/products/{id}', () => {
    it('deletes a product without sales, with its files and plans', async () => {
      const product = await createProduct(t, seller, { name: 'Gone', type: 'recurring' });
      await addLinkFile(t, seller, product.id);
      await createPlan(t, seller, product.pid);
      await insertOrder(t, { storeId: seller.storeId, productId: product.id, status: 'pending' });
      await insertOrder(t, { storeId: seller.storeId, productId: product.id, status: 'cancelled' });
      const res = await t.http.delete(`/v1/products/${product.pid}`).set(seller.auth).expect(200);
      expect(res.body).toEqual({
        status: 'success',
        message: 'Product deleted successfully.',
        data: { id: product.id, product_pid: product.pid },
      });
      await t.http.get(`/v1/products/${product.id}`).set(seller.auth).expect(404);
      const [{ files, plans }] = await t.dataSource.query(
        `SELECT (SELECT count(*)::int FROM product_files WHERE product_id = $1) AS files,
                (SELECT count(*)::int FROM plans WHERE product_id = $1) AS plans`,
        [product.id],
      );
      expect({ files, plans }).toEqual({ files: 0, plans: 0 });
    });

    it.each(['approved', 'refunded'])('409 when the product has a sale in status %s', async (status) => {
      const product = await createProduct(t, seller, { name: 'Sold' });
      await insertOrder(t, { storeId: seller.storeId, productId: product.id, status });
      const res = await t.http.delete(`/v1/products/${product.id}`).set(seller.auth).expect(409);
      expect(res.body).toEqual({
        status: 'error',
        message: 'This product has one or more sales and cannot be deleted.',
      });
      await t.http.get(`/v1/products/${product.id}`).set(seller.auth).expect(200);
    });

    it('409 when the product was sold as an order bump', async () => {
      const main = await createProduct(t, seller, { name: 'Main' });
      const bump = await createProduct(t, seller, { name: 'Bump' });
      const order = await insertOrder(t, { storeId: seller.storeId, productId: main.id, status: 'approved' });
      await t.dataSource.query(
        `INSERT INTO order_bump_items (order_id, product_id, product_pid, name, price) VALUES ($1, $2, $3, 'Bump', 10)`,
        [order.id, bump.id, bump.pid],
      );
      await t.http.delete(`/v1/products/${bump.id}`).set(seller.auth).expect(409);
    });

    it('404 for another store product, which stays', async () => {
      const foreign = await createProduct(t, other);
      await t.http.delete(`/v1/products/${foreign.id}`).set(seller.auth).expect(404);
      await t.http.get(`/v1/products/${foreign.id}`).set(other.auth).expect(200);
    });
  });

  describe('authentication and scopes', () => {
    const routes: [string, string, string][] = [
      ['post', '/v1/products', 'products.write'],
      ['get', '/v1/products', 'products.read'],
      ['get', '/v1/products/1', 'products.read'],
      ['patch', '/v1/products/1', 'products.write'],
      ['delete', '/v1/products/1', 'products.write'],
      ['post', '/v1/products/1/publish', 'products.write'],
    ];

    it.each(routes)('%s %s: 401 without a token', async (method, path) => {
      const res = await (t.http as any)[method](path).expect(401);
      expect(res.body).toEqual({ status: 'error', message: 'Token not provided' });
    });

    it.each(routes)('%s %s: 403 without %s', async (method, path, scope) => {
      const granted = scope.endsWith('.read') ? ['products.write', 'files.read'] : ['products.read', 'files.write'];
      const token = await seller.tokenWith(granted as any);
      const res = await (t.http as any)
        [method](path)
        .set('Authorization', `Bearer ${token}`)
        .send({ name: 'x' })
        .expect(403);
      expect(res.body).toEqual(forbidden(scope, granted));
    });
  });
});
