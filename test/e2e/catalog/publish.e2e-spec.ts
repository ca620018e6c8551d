import { productReviewCommand } from '../../../src/cli/commands/product-review.command';
import { ProductsService } from '../../../src/modules/catalog/products/products.service';
import { createSeller, TestSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';
import {
  addLinkFile,
  COMPLETE_PRODUCT,
  createPlan,
  createProduct,
  CreatedProduct,
  forbidden,
  NOT_FOUND,
} from './catalog-fixtures';

describe('Publish and review', () => {
  let t: TestApp;
  let seller: TestSeller;

  beforeAll(async () => {
    t = await createTestApp();
    seller = await createSeller(t);
  });
  afterAll(() => t.close());

  /** A one-time product meeting every requirement, with one file. */
  async function completeProduct(owner = seller, extra: Record<string, unknown> = {}): Promise<CreatedProduct> {
    const product = await createProduct(t, owner, { ...COMPLETE_PRODUCT, ...extra });
    await addLinkFile(t, owner, product.id);
    return product;
  }

  const publish = (product: { id: number | string }, owner = seller) =>
    t.http.post(`/v1/products/${product.id}/publish`).set(owner.auth);

  it('submits a complete product for review', async () => {
    const product = await completeProduct();
    const res = await publish(product).expect(200);
    expect(res.body).toEqual({
      status: 'success',
      message: 'Product submitted for review.',
      data: { product_id: product.id, product_pid: product.pid, status: 'pending' },
    });
    const after = await t.http.get(`/v1/products/${product.pid}`).set(seller.auth).expect(200);
    expect(after.body.product.status_2).toBe('pending');
  });

  it('accepts the product_pid in the path', async () => {
    const product = await completeProduct();
    await t.http.post(`/v1/products/${product.pid}/publish`).set(seller.auth).expect(200);
  });

  it('names every missing requirement at once', async () => {
    const product = await createProduct(t, seller, { name: 'Bare', type: 'recurring' });
    const res = await publish(product).expect(422);
    expect(res.body.message).toBe('Product is missing required data.');
    expect(Object.keys(res.body.missing_fields).sort()).toEqual(
      ['category', 'contact_number', 'files', 'image', 'plans', 'price', 'sale_page', 'subcategory'].sort(),
    );
    for (const message of Object.values(res.body.missing_fields)) expect(typeof message).toBe('string');
  });

  describe('each requirement on its own', () => {
    const fieldOf: Record<string, string> = {
      price: 'price',
      sale_page: 'sale_page_url',
      image: 'image_url',
      category: 'category',
      subcategory: 'subcategory',
      contact_number: 'contact_number',
    };

    it.each(Object.keys(fieldOf))('422 missing_fields.%s when only it is missing', async (requirement) => {
      const product = await completeProduct(seller, { [fieldOf[requirement]]: null });
      const res = await publish(product).expect(422);
      expect(res.body).toEqual({
        status: 'error',
        message: 'Product is missing required data.',
        missing_fields: { [requirement]: expect.any(String) },
      });
      const after = await t.http.get(`/v1/products/${product.id}`).set(seller.auth).expect(200);
      expect(after.body.product.status_2).toBe('draft');
    });

    it('422 missing_fields.name when the name is blank in the database', async () => {
      // The API never accepts an empty name; rows written before that rule may have one.
      const product = await completeProduct();
      await t.dataSource.query(`UPDATE products SET name = '  ' WHERE id = $1`, [product.id]);
      const res = await publish(product).expect(422);
      expect(res.body.missing_fields).toEqual({ name: expect.any(String) });
    });

    it('422 missing_fields.files without a file', async () => {
      const product = await createProduct(t, seller, { ...COMPLETE_PRODUCT });
      const res = await publish(product).expect(422);
      expect(res.body.missing_fields).toEqual({ files: 'The product needs at least one file.' });
    });

    it('422 missing_fields.plans for a recurring product without a plan, 200 once it has one', async () => {
      const product = await completeProduct(seller, { type: 'recurring' });
      const res = await publish(product).expect(422);
      expect(res.body.missing_fields).toEqual({ plans: 'A recurring product needs at least one plan.' });
      await createPlan(t, seller, product.pid);
      await publish(product).expect(200);
    });

    it('a one-time product needs no plan', async () => {
      await publish(await completeProduct()).expect(200);
    });
  });

  describe('MZN minimum price', () => {
    it('422 missing_fields.price below 50 in an MZN store', async () => {
      const product = await completeProduct(seller, { price: 49.99 });
      const res = await publish(product).expect(422);
      expect(res.body.missing_fields).toEqual({ price: 'The price must be at least 50 MZN.' });
    });

    it('accepts exactly 50 in an MZN store', async () => {
      await publish(await completeProduct(seller, { price: 50 })).expect(200);
    });

    it('accepts a lower price in a store of another currency', async () => {
      const usd = await createSeller(t, { currency: 'USD' });
      await publish(await completeProduct(usd, { price: 10 }), usd).expect(200);
    });

    it('422 for a price of 0 in any store', async () => {
      const usd = await createSeller(t, { currency: 'USD' });
      const res = await publish(await completeProduct(usd, { price: 0 }), usd).expect(422);
      expect(Object.keys(res.body.missing_fields)).toEqual(['price']);
    });
  });

  describe('review state machine', () => {
    const cli = (flags: Record<string, string[]>) => productReviewCommand.run(t.app, flags);

    it('draft → pending → 409 while pending → approved by the operator → 409 again', async () => {
      const product = await completeProduct();
      await publish(product).expect(200);
      const again = await publish(product).expect(409);
      expect(again.body).toEqual({ status: 'error', message: 'Product is already in review.' });

      expect(await cli({ product: [product.pid], decision: ['approve'] })).toEqual({
        product_pid: product.pid,
        status_2: 'approved',
      });
      const after = await t.http.get(`/v1/products/${product.id}`).set(seller.auth).expect(200);
      expect(after.body.product.status_2).toBe('approved');
      await publish(product).expect(409);
    });

    it('pending → rejected → fixed and submitted again → approved', async () => {
      const product = await completeProduct();
      await publish(product).expect(200);
      expect(await cli({ product: [product.pid], decision: ['reject'] })).toEqual({
        product_pid: product.pid,
        status_2: 'rejected',
      });
      await publish(product).expect(200);
      const reviewed = await t.app.get(ProductsService).review(product.pid, 'approve');
      expect(reviewed.reviewStatus).toBe('approved');
    });

    it('refuses a decision on a product that is not pending', async () => {
      const product = await completeProduct();
      await expect(cli({ product: [product.pid], decision: ['approve'] })).rejects.toThrow(/not pending review/);
      const after = await t.http.get(`/v1/products/${product.id}`).set(seller.auth).expect(200);
      expect(after.body.product.status_2).toBe('draft');
    });

    it('refuses an unknown product, an unknown decision and missing flags', async () => {
      await expect(cli({ product: ['prod_nope'], decision: ['approve'] })).rejects.toThrow('Product not found.');
      await expect(cli({ product: ['prod_nope'], decision: ['maybe'] })).rejects.toThrow(/--decision/);
      await expect(cli({ decision: ['approve'] })).rejects.toThrow(/--product/);
      expect(productReviewCommand.name).toBe('product:review');
    });

    it('only one of three simultaneous publishes succeeds', async () => {
      const product = await completeProduct();
      const results = await Promise.all([publish(product), publish(product), publish(product)]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    });
  });

  describe('errors', () => {
    it('404 for an unknown product and another store product', async () => {
      const other = await createSeller(t);
      const foreign = await completeProduct(other);
      for (const id of ['424242', 'prod_unknown', String(foreign.id), foreign.pid]) {
        const res = await t.http.post(`/v1/products/${id}/publish`).set(seller.auth).expect(404);
        expect(res.body).toEqual(NOT_FOUND);
      }
      const still = await t.http.get(`/v1/products/${foreign.id}`).set(other.auth).expect(200);
      expect(still.body.product.status_2).toBe('draft');
    });

    it('403 with products.read only', async () => {
      const token = await seller.tokenWith(['products.read']);
      const res = await t.http.post('/v1/products/1/publish').set('Authorization', `Bearer ${token}`).expect(403);
      expect(res.body).toEqual(forbidden('products.write', ['products.read']));
    });

    it('401 with an invalid token', async () => {
      const res = await t.http.post('/v1/products/1/publish').set('Authorization', 'Bearer sk_nope').expect(401);
      expect(res.body).toEqual({ status: 'error', message: 'Invalid token' });
    });
  });
});
