import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { sentWhileDeleting } from '../../utils/product-deletion';
import { createSeller, TestSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';
import { createPlan, createProduct, CreatedProduct, NOT_FOUND } from './catalog-fixtures';

const dataDir = `/tmp/commerce-catalog-races-${process.pid}`;

const ONE_TIME_PLAN = 'Plans can only be created for recurring products.';
const MUST_STAY_RECURRING = 'A product with plans must stay recurring; delete its plans first.';

/**
 * Resolves once a statement whose text matches one of `patterns` (ILIKE) waits for a lock of another
 * transaction. (test/utils' `waitingForProductHold` looks for `FOR KEY SHARE` only.)
 */
async function waitingOnLock(dataSource: DataSource, ...patterns: string[]): Promise<void> {
  for (;;) {
    const [{ waiting }] = (await dataSource.query(
      `SELECT count(*)::int AS waiting FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE ANY($1)`,
      [patterns],
    )) as { waiting: number }[];
    if (waiting > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Which comes first: the request's answer, or a statement matching one of `patterns` waiting for a lock. */
function answeredOrWaiting(answer: Promise<unknown>, dataSource: DataSource, ...patterns: string[]) {
  return Promise.race([
    answer.then(() => 'answered' as const),
    waitingOnLock(dataSource, ...patterns).then(() => 'waiting' as const),
  ]);
}

/** A table locked `IN SHARE MODE` by an open transaction: its rows can be read and locked, not written. */
async function tableLocked(dataSource: DataSource, table: 'plans' | 'products') {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  await runner.startTransaction();
  await runner.query(`LOCK TABLE ${table} IN SHARE MODE`);
  return {
    async release(): Promise<void> {
      if (runner.isTransactionActive) await runner.rollbackTransaction();
      await runner.release();
    },
  };
}

/** Products, plans and files changed at once (catalog README, *Files*, *Plans*, *Product deletion*). */
describe('a product changed or deleted while a file or plan is added to it', () => {
  let t: TestApp;
  let seller: TestSeller;

  beforeAll(async () => {
    t = await createTestApp({ env: { DATA_DIR: dataDir } });
    seller = await createSeller(t);
  });
  afterAll(() => t.close());

  const recurring = () => createProduct(t, seller, { name: 'Clube', type: 'recurring' });

  async function filesOf(productId: number): Promise<number> {
    const [{ count }] = await t.dataSource.query(
      'SELECT count(*)::int AS count FROM product_files WHERE product_id = $1',
      [productId],
    );
    return count;
  }

  async function plansOf(productId: number): Promise<number> {
    const [{ count }] = await t.dataSource.query('SELECT count(*)::int AS count FROM plans WHERE product_id = $1', [
      productId,
    ]);
    return count;
  }

  /** The stored objects under `$DATA_DIR/files` (local storage: `files/<2 chars>/<key>`). */
  function storedObjects(): string[] {
    const root = join(dataDir, 'files');
    if (!existsSync(root)) return [];
    return readdirSync(root).flatMap((dir) => readdirSync(join(root, dir)));
  }

  describe('while its deletion is under way', () => {
    let doomed: CreatedProduct;
    beforeEach(async () => {
      doomed = await recurring();
    });

    it('a link file waits for the deletion: 404 Resource not found., no row left', async () => {
      const res = await sentWhileDeleting(t.dataSource, doomed.id, () =>
        t.http
          .post(`/v1/products/${doomed.pid}/files`)
          .set(seller.auth)
          .send({ name: 'Aula 1', link: 'https://videos.example.com/aula-1' })
          .then((answer) => answer),
      );
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
      expect(await filesOf(doomed.id)).toBe(0);
    });

    it('an upload is stored, then its row waits for the deletion: 404, no row and no stored object left', async () => {
      const before = storedObjects();
      const res = await sentWhileDeleting(t.dataSource, doomed.id, () =>
        t.http
          .post(`/v1/products/${doomed.id}/files`)
          .set(seller.auth)
          .attach('file', Buffer.from('%PDF-1.4 conteúdo'), { filename: 'guia.pdf', contentType: 'application/pdf' })
          .then((answer) => answer),
      );
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
      expect(await filesOf(doomed.id)).toBe(0);
      expect(storedObjects()).toEqual(before);
    });

    it('a plan waits for the deletion: 404 Product not found., no plan left', async () => {
      const deletion = t.dataSource.createQueryRunner();
      await deletion.connect();
      try {
        // As the catalog's deletion: the product's row locked FOR UPDATE, then deleted.
        await deletion.startTransaction();
        await deletion.query('SELECT id FROM products WHERE id = $1 FOR UPDATE', [doomed.id]);
        const answer = t.http
          .post('/v1/plans')
          .set(seller.auth)
          .send({ product_pid: doomed.pid, name: 'Mensal', price: 500, interval: 'month' })
          .then((r) => r);
        expect(await answeredOrWaiting(answer, t.dataSource, '%FOR SHARE%')).toBe('waiting');
        await deletion.query('DELETE FROM products WHERE id = $1', [doomed.id]);
        await deletion.commitTransaction();
        const res = await answer;
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ status: 'error', message: 'Product not found.' });
        expect(await plansOf(doomed.id)).toBe(0);
      } finally {
        if (deletion.isTransactionActive) await deletion.rollbackTransaction();
        await deletion.release();
      }
    });

    it('the real deletion, started while a plan holds the product, deletes that plan with it', async () => {
      // The plan's insert is held back (plans locked IN SHARE MODE) after it took its product.
      const lock = await tableLocked(t.dataSource, 'plans');
      let plan: Promise<Response> | undefined;
      let deletion: Promise<Response> | undefined;
      try {
        plan = t.http
          .post('/v1/plans')
          .set(seller.auth)
          .send({ product_id: doomed.id, name: 'Mensal', price: 500, interval: 'month' })
          .then((r) => r);
        await waitingOnLock(t.dataSource, 'INSERT INTO "plans"%');
        deletion = t.http
          .delete(`/v1/products/${doomed.pid}`)
          .set(seller.auth)
          .then((r) => r);
        // Fixed, it waits for the plan's hold on the product; unfixed, only when it deletes the plans.
        expect(await answeredOrWaiting(deletion, t.dataSource, '%FOR UPDATE%', 'DELETE FROM "plans"%')).toBe('waiting');
      } finally {
        await lock.release();
      }
      expect((await plan).status).toBe(201);
      expect((await deletion).status).toBe(200);
      expect(await plansOf(doomed.id)).toBe(0);
    });
  });

  describe('a plan created while the product becomes one_time: exactly one wins', () => {
    const patchOneTime = (product: CreatedProduct) =>
      t.http
        .patch(`/v1/products/${product.pid}`)
        .set(seller.auth)
        .send({ type: 'one_time' })
        .then((r) => r);
    const postPlan = (product: CreatedProduct) =>
      t.http
        .post('/v1/plans')
        .set(seller.auth)
        .send({ product_pid: product.pid, name: 'Mensal', price: 500, interval: 'month' })
        .then((r) => r);

    async function typeOf(product: CreatedProduct): Promise<string> {
      return (await t.http.get(`/v1/products/${product.pid}`).set(seller.auth).expect(200)).body.product.type;
    }

    it('the plan took the product first: the change waits for it, then is 422', async () => {
      const product = await recurring();
      // The plan is held back at its insert, after it read (and, fixed, held) its product.
      const lock = await tableLocked(t.dataSource, 'plans');
      let plan: Promise<Response> | undefined;
      let patch: Promise<Response> | undefined;
      try {
        plan = postPlan(product);
        await waitingOnLock(t.dataSource, 'INSERT INTO "plans"%');
        patch = patchOneTime(product);
        // Unfixed, the change saw no plan yet and committed; fixed, it waits for the plan's hold.
        await answeredOrWaiting(patch, t.dataSource, '%FOR UPDATE%');
      } finally {
        await lock.release();
      }
      const [planRes, patchRes] = await Promise.all([plan, patch]);
      expect([planRes.status, patchRes.status]).toEqual([201, 422]);
      expect(patchRes.body.errors).toEqual({ type: [MUST_STAY_RECURRING] });
      expect(await typeOf(product)).toBe('recurring');
      expect(await plansOf(product.id)).toBe(1);
    });

    it('the change took the product first: the plan waits for it, then is 422', async () => {
      const product = await recurring();
      // The change is held back at its UPDATE, after it locked the product and counted its plans.
      const lock = await tableLocked(t.dataSource, 'products');
      let plan: Promise<Response> | undefined;
      let patch: Promise<Response> | undefined;
      try {
        patch = patchOneTime(product);
        await waitingOnLock(t.dataSource, 'UPDATE "products"%');
        plan = postPlan(product);
        // Unfixed, the plan read `recurring` without a lock and was inserted; fixed, it waits.
        await answeredOrWaiting(plan, t.dataSource, '%FOR SHARE%');
      } finally {
        await lock.release();
      }
      const [planRes, patchRes] = await Promise.all([plan, patch]);
      expect([planRes.status, patchRes.status]).toEqual([422, 200]);
      expect(planRes.body.errors).toEqual({ product_pid: [ONE_TIME_PLAN] });
      expect(await typeOf(product)).toBe('one_time');
      expect(await plansOf(product.id)).toBe(0);
    });

    it('sent at once, again and again: never a one_time product with a plan', async () => {
      for (let round = 0; round < 8; round++) {
        const product = await recurring();
        const [planRes, patchRes] = await Promise.all([postPlan(product), patchOneTime(product)]);
        expect([planRes.status, patchRes.status]).toEqual(planRes.status === 201 ? [201, 422] : [422, 200]);
        const plans = await plansOf(product.id);
        expect(plans).toBe(planRes.status === 201 ? 1 : 0);
        expect(await typeOf(product)).toBe(plans ? 'recurring' : 'one_time');
      }
    });

    it('a product with a plan still refuses the change, and a one_time product still refuses a plan', async () => {
      const product = await recurring();
      await createPlan(t, seller, product.pid);
      const patch = await patchOneTime(product);
      expect(patch.status).toBe(422);
      expect(patch.body.errors).toEqual({ type: [MUST_STAY_RECURRING] });
      const oneTime = await createProduct(t, seller, { name: 'Ebook' });
      const plan = await t.http
        .post('/v1/plans')
        .set(seller.auth)
        .send({ product_id: oneTime.id, name: 'Mensal', price: 500, interval: 'month' })
        .expect(422);
      expect(plan.body.errors).toEqual({ product_id: [ONE_TIME_PLAN] });
    });
  });
});
