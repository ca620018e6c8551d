import { randomBytes } from 'node:crypto';
import { OrderBumpsService } from '../../../src/modules/catalog/order-bumps/order-bumps.service';
import { createSeller, TestSeller } from '../../utils/auth';
import { sentWhileDeleting } from '../../utils/product-deletion';
import { createTestApp, TestApp } from '../../utils/test-app';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

interface ProductRow {
  id: number;
  pid: string;
  name: string;
}

describe('Order bumps API', () => {
  let t: TestApp;
  let seller: TestSeller;
  let other: TestSeller;

  /** Products belong to the catalog module; these tests write the rows directly. */
  async function insertProduct(storeId: number, name: string): Promise<ProductRow> {
    const pid = `p_${randomBytes(6).toString('hex')}`;
    const [row] = await t.dataSource.query(
      `INSERT INTO products (store_id, pid, name, price) VALUES ($1, $2, $3, 100) RETURNING id, pid, name`,
      [storeId, pid, name],
    );
    return row;
  }

  const url = (ref: string | number) => `/v1/products/${ref}/order-bumps`;

  beforeAll(async () => {
    t = await createTestApp();
    seller = await createSeller(t);
    other = await createSeller(t);
  });
  afterAll(() => t.close());

  describe('POST /v1/products/{id}/order-bumps', () => {
    let course: ProductRow;
    let workbook: ProductRow;
    let templates: ProductRow;
    let foreign: ProductRow;

    beforeAll(async () => {
      course = await insertProduct(seller.storeId, 'Course');
      workbook = await insertProduct(seller.storeId, 'Workbook');
      templates = await insertProduct(seller.storeId, 'Templates');
      foreign = await insertProduct(other.storeId, 'Foreign');
    });

    it('creates a bump by product_id on a product named by id, 201', async () => {
      const res = await t.http
        .post(url(course.id))
        .set(seller.auth)
        .send({ product_id: workbook.id, price: 49.9 })
        .expect(201);
      expect(res.body).toEqual({
        status: 'success',
        message: 'Order bump created.',
        order_bump: {
          id: expect.any(Number),
          product_pid: course.pid,
          bump_product: { id: workbook.id, pid: workbook.pid, name: 'Workbook' },
          price: 49.9,
          created_at: expect.stringMatching(TIMESTAMP),
        },
      });
      const [row] = await t.dataSource.query(
        'SELECT store_id, product_id, bump_product_id, price FROM order_bumps WHERE id = $1',
        [res.body.order_bump.id],
      );
      expect(row).toEqual({
        store_id: seller.storeId,
        product_id: course.id,
        bump_product_id: workbook.id,
        price: '49.90',
      });
    });

    it('creates a bump by product_pid on a product named by pid', async () => {
      const res = await t.http
        .post(url(course.pid))
        .set(seller.auth)
        .send({ product_pid: templates.pid, price: 0.01 })
        .expect(201);
      expect(res.body.order_bump).toMatchObject({
        product_pid: course.pid,
        bump_product: { id: templates.id },
        price: 0.01,
      });
    });

    it('409 for a duplicate bump, which is not stored twice', async () => {
      const res = await t.http
        .post(url(course.pid))
        .set(seller.auth)
        .send({ product_pid: workbook.pid, price: 10 })
        .expect(409);
      expect(res.body).toEqual({ status: 'error', message: 'This product is already an order bump of the product.' });
      const [{ n }] = await t.dataSource.query(
        'SELECT count(*)::int AS n FROM order_bumps WHERE product_id = $1 AND bump_product_id = $2',
        [course.id, workbook.id],
      );
      expect(n).toBe(1);
    });

    it.each(['offering', 'offered'])(
      'waits for a deletion of the %s product under way, then 404 with no bump written',
      async (which) => {
        const offering = await insertProduct(seller.storeId, 'Offering');
        const offered = await insertProduct(seller.storeId, 'Offered');
        const doomed = which === 'offering' ? offering : offered;
        const res = await sentWhileDeleting(t.dataSource, doomed.id, () =>
          t.http
            .post(url(offering.pid))
            .set(seller.auth)
            .send({ product_id: offered.id, price: 5 })
            .then((answer) => answer),
        );
        expect({ status: res.status, body: res.body }).toEqual({
          status: 404,
          body: { status: 'error', message: 'Resource not found.' },
        });
        const rows = await t.dataSource.query(
          `SELECT id FROM order_bumps WHERE product_id = $1 OR bump_product_id = $2`,
          [offering.id, offered.id],
        );
        expect(rows).toEqual([]);
      },
    );

    it('422 when a product would bump itself', async () => {
      const byId = await t.http
        .post(url(workbook.id))
        .set(seller.auth)
        .send({ product_id: workbook.id, price: 5 })
        .expect(422);
      expect(byId.body).toEqual({
        status: 'error',
        message: 'Validation failed.',
        errors: { product_id: ['A product cannot be an order bump of itself.'] },
      });
      const byPid = await t.http
        .post(url(workbook.pid))
        .set(seller.auth)
        .send({ product_pid: workbook.pid, price: 5 })
        .expect(422);
      expect(Object.keys(byPid.body.errors)).toEqual(['product_pid']);
    });

    it.each([
      [{ price: 10 }, ['product_id']],
      [{ product_id: 'abc', price: 10 }, ['product_id']],
      [{ product_pid: 123, price: 10 }, ['product_pid']],
      [{ product_pid: 'x' }, ['price']],
      [{ product_pid: 'x', price: 0 }, ['price']],
      [{ product_pid: 'x', price: 1.005 }, ['price']],
      [{ product_pid: 'x', price: '10' }, ['price']],
      [{}, ['price', 'product_id']],
    ])('422 for %j', async (body, fields) => {
      const res = await t.http.post(url(course.id)).set(seller.auth).send(body).expect(422);
      expect(res.body.message).toBe('Validation failed.');
      expect(Object.keys(res.body.errors).sort()).toEqual(fields);
    });

    it('a null product_id without product_pid is the DTO\'s own "required" message, alone', async () => {
      for (const body of [{ price: 10 }, { product_id: null, price: 10 }]) {
        const res = await t.http.post(url(course.id)).set(seller.auth).send(body).expect(422);
        expect(res.body.errors).toEqual({ product_id: ['product_id or product_pid is required.'] });
      }
    });

    it('422 when product_id and product_pid name different products', async () => {
      const res = await t.http
        .post(url(templates.id))
        .set(seller.auth)
        .send({ product_id: workbook.id, product_pid: course.pid, price: 3 })
        .expect(422);
      expect(Object.keys(res.body.errors)).toEqual(['product_pid']);
    });

    it.each([
      ['an unknown product', () => url('p_doesnotexist'), () => ({ product_id: workbook.id, price: 1 })],
      ["another store's product", () => url(foreign.pid), () => ({ product_id: workbook.id, price: 1 })],
      ['an unknown bump product', () => url(course.id), () => ({ product_id: 999999, price: 1 })],
      ["another store's bump product by id", () => url(course.id), () => ({ product_id: foreign.id, price: 1 })],
      ["another store's bump product by pid", () => url(course.id), () => ({ product_pid: foreign.pid, price: 1 })],
    ])('404 Resource not found. for %s', async (_, path, body) => {
      const res = await t.http.post(path()).set(seller.auth).send(body()).expect(404);
      expect(res.body).toEqual({ status: 'error', message: 'Resource not found.' });
    });

    it('401 without a token', async () => {
      const res = await t.http.post(url(course.id)).send({ product_id: workbook.id, price: 1 }).expect(401);
      expect(res.body).toEqual({ status: 'error', message: 'Token not provided' });
    });

    it('403 with products.read only', async () => {
      const token = await seller.tokenWith(['products.read']);
      const res = await t.http
        .post(url(course.id))
        .set('Authorization', `Bearer ${token}`)
        .send({ product_id: workbook.id, price: 1 })
        .expect(403);
      expect(res.body).toEqual({
        status: 'error',
        message: 'Permission denied for this endpoint.',
        error_code: 'insufficient_scope',
        required_scopes: ['products.write'],
        missing_scopes: ['products.write'],
        granted_scopes: ['products.read'],
      });
    });
  });

  describe('GET and DELETE', () => {
    let main: ProductRow;
    let a: ProductRow;
    let b: ProductRow;
    let bumpA: number;
    let bumpB: number;
    let foreignProduct: ProductRow;
    let foreignBump: number;

    beforeAll(async () => {
      main = await insertProduct(seller.storeId, 'Main');
      a = await insertProduct(seller.storeId, 'Add-on A');
      b = await insertProduct(seller.storeId, 'Add-on B');
      bumpA = (await t.http.post(url(main.id)).set(seller.auth).send({ product_id: a.id, price: 19.99 }).expect(201))
        .body.order_bump.id;
      bumpB = (await t.http.post(url(main.id)).set(seller.auth).send({ product_pid: b.pid, price: 5 }).expect(201)).body
        .order_bump.id;
      foreignProduct = await insertProduct(other.storeId, 'Foreign main');
      const foreignAddOn = await insertProduct(other.storeId, 'Foreign add-on');
      foreignBump = (
        await t.http
          .post(url(foreignProduct.id))
          .set(other.auth)
          .send({ product_id: foreignAddOn.id, price: 1 })
          .expect(201)
      ).body.order_bump.id;
    });

    it('GET lists the bumps newest first, by id or pid', async () => {
      for (const ref of [main.id, main.pid]) {
        const res = await t.http.get(url(ref)).set(seller.auth).expect(200);
        expect(res.body).toEqual({
          status: 'success',
          page: 1,
          per_page: 15,
          last_page: 1,
          total: 2,
          order_bumps: [
            {
              id: bumpB,
              product_pid: main.pid,
              bump_product: { id: b.id, pid: b.pid, name: 'Add-on B' },
              price: 5,
              created_at: expect.stringMatching(TIMESTAMP),
            },
            {
              id: bumpA,
              product_pid: main.pid,
              bump_product: { id: a.id, pid: a.pid, name: 'Add-on A' },
              price: 19.99,
              created_at: expect.stringMatching(TIMESTAMP),
            },
          ],
        });
      }
    });

    it('GET answers an empty list for a product without bumps', async () => {
      const res = await t.http.get(url(a.pid)).set(seller.auth).expect(200);
      expect(res.body).toEqual({ status: 'success', page: 1, per_page: 15, last_page: 1, total: 0, order_bumps: [] });
    });

    it('GET pages with page and per_page, as every list (decisions §6)', async () => {
      const first = await t.http
        .get(`${url(main.pid)}?per_page=1`)
        .set(seller.auth)
        .expect(200);
      expect(first.body).toMatchObject({ page: 1, per_page: 1, last_page: 2, total: 2 });
      expect(first.body.order_bumps.map((x: { id: number }) => x.id)).toEqual([bumpB]);
      const second = await t.http
        .get(`${url(main.pid)}?per_page=1&page=2`)
        .set(seller.auth)
        .expect(200);
      expect(second.body.order_bumps.map((x: { id: number }) => x.id)).toEqual([bumpA]);
      const past = await t.http
        .get(`${url(main.pid)}?page=3`)
        .set(seller.auth)
        .expect(200);
      expect(past.body).toMatchObject({ page: 3, per_page: 15, last_page: 1, total: 2, order_bumps: [] });
    });

    it('GET 422 for a page or per_page out of range', async () => {
      const res = await t.http
        .get(`${url(main.pid)}?per_page=101&page=0`)
        .set(seller.auth)
        .expect(422);
      expect(res.body).toMatchObject({
        status: 'error',
        errors: { page: ['page must be at least 1.'], per_page: ['per_page must be at most 100.'] },
      });
      await t.http
        .get(`${url(main.pid)}?per_page=0`)
        .set(seller.auth)
        .expect(422);
      await t.http
        .get(`${url(main.pid)}?page=x`)
        .set(seller.auth)
        .expect(422);
    });

    it('listForProduct gives checkout the offer in cents, and nothing for another store', async () => {
      const service = t.app.get(OrderBumpsService);
      const offer = await service.listForProduct(seller.storeId, main.id);
      expect(offer).toEqual([
        {
          id: bumpA,
          productId: main.id,
          bumpProduct: { id: a.id, pid: a.pid, name: 'Add-on A' },
          price: 1999,
          createdAt: expect.any(Date),
        },
        {
          id: bumpB,
          productId: main.id,
          bumpProduct: { id: b.id, pid: b.pid, name: 'Add-on B' },
          price: 500,
          createdAt: expect.any(Date),
        },
      ]);
      expect(await service.listForProduct(other.storeId, main.id)).toEqual([]);
    });

    it.each([
      ['an unknown product', () => url('nope')],
      ["another store's product", () => url(foreignProduct.pid)],
    ])('GET 404 for %s', async (_, path) => {
      const res = await t.http.get(path()).set(seller.auth).expect(404);
      expect(res.body).toEqual({ status: 'error', message: 'Resource not found.' });
    });

    it('GET 403 with products.write only, 401 with a bad token', async () => {
      const token = await seller.tokenWith(['products.write']);
      const res = await t.http.get(url(main.id)).set('Authorization', `Bearer ${token}`).expect(403);
      expect(res.body.missing_scopes).toEqual(['products.read']);
      const bad = await t.http.get(url(main.id)).set('Authorization', 'Bearer sk_nope').expect(401);
      expect(bad.body).toEqual({ status: 'error', message: 'Invalid token' });
    });

    it.each([
      ["another store's bump under our product", () => `${url(main.id)}/${foreignBump}`],
      ["another store's bump under its own product", () => `${url(foreignProduct.id)}/${foreignBump}`],
      ['a bump of another product of the store', () => `${url(a.id)}/${bumpA}`],
      ['an unknown bump id', () => `${url(main.id)}/999999`],
      ['a non-numeric bump id', () => `${url(main.id)}/abc`],
    ])('DELETE 404 for %s', async (_, path) => {
      const res = await t.http.delete(path()).set(seller.auth).expect(404);
      expect(res.body).toEqual({ status: 'error', message: 'Resource not found.' });
    });

    it('DELETE 403 with products.read only, 401 without a token', async () => {
      const token = await seller.tokenWith(['products.read']);
      const res = await t.http
        .delete(`${url(main.id)}/${bumpB}`)
        .set('Authorization', `Bearer ${token}`)
        .expect(403);
      expect(res.body.required_scopes).toEqual(['products.write']);
      await t.http.delete(`${url(main.id)}/${bumpB}`).expect(401);
    });

    it('DELETE removes the bump; the other stays, the foreign one is untouched', async () => {
      const res = await t.http
        .delete(`${url(main.pid)}/${bumpA}`)
        .set(seller.auth)
        .expect(200);
      expect(res.body).toEqual({
        status: 'success',
        message: 'Order bump deleted.',
        data: { product_pid: main.pid, order_bump_id: bumpA },
      });
      const list = await t.http.get(url(main.id)).set(seller.auth).expect(200);
      expect(list.body.order_bumps.map((x: { id: number }) => x.id)).toEqual([bumpB]);
      await t.http
        .delete(`${url(main.pid)}/${bumpA}`)
        .set(seller.auth)
        .expect(404);
      const foreign = await t.http.get(url(foreignProduct.id)).set(other.auth).expect(200);
      expect(foreign.body.order_bumps.map((x: { id: number }) => x.id)).toEqual([foreignBump]);
    });
  });

  it('documents the routes in OpenAPI under Products with their scopes', async () => {
    const res = await t.http.get('/docs-json').expect(200);
    const collection = res.body.paths['/v1/products/{id}/order-bumps'];
    expect(collection.post['x-required-scopes']).toEqual(['products.write']);
    expect(collection.post.responses['409']).toBeDefined();
    expect(collection.get['x-required-scopes']).toEqual(['products.read']);
    expect(collection.get.tags).toEqual(['Products']);
    // The list envelope, and its page and per_page parameters with their 422.
    expect(collection.get.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['page', 'per_page']),
    );
    expect(collection.get.responses['422']).toBeDefined();
    const list = res.body.components.schemas.OrderBumpListResponseDto;
    expect(list.required).toEqual(
      expect.arrayContaining(['status', 'page', 'per_page', 'last_page', 'total', 'order_bumps']),
    );
    expect(res.body.paths['/v1/products/{id}/order-bumps/{bump_id}'].delete['x-required-scopes']).toEqual([
      'products.write',
    ]);
    expect(res.body.components.schemas.CreateOrderBumpDto.properties.price.example).toBe(49.9);
  });
});
