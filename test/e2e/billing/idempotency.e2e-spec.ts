import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { IdempotencyClaims } from '../../../src/common/idempotency/idempotency-claims';
import { IdempotencyRepository } from '../../../src/common/idempotency/idempotency.repository';
import { createSeller, TestSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';
import { addLinkFile, COMPLETE_PRODUCT, createProduct } from '../catalog/catalog-fixtures';
import { createOrder, insertProduct, orderBody, payJson } from './fixtures';

const dataDir = `/tmp/commerce-idempotency-${process.pid}`;

/** Stored objects under `$DATA_DIR/files` (two-character fan-out folders). */
function storedFiles(): number {
  const root = join(dataDir, 'files');
  if (!existsSync(root)) return 0;
  return readdirSync(root).reduce((n, folder) => n + readdirSync(join(root, folder)).length, 0);
}

/**
 * `@Idempotent()` as a guard plus one `onSend` hook (customers-idempotency.e2e-spec.ts covers the
 * order routes, the 422 on another body, the 409 in flight, per-token keys and expiry).
 */
describe('Idempotency-Key: replays, releases and requests without a key', () => {
  let t: TestApp;
  let seller: TestSeller;

  beforeAll(async () => {
    t = await createTestApp({ env: { DATA_DIR: dataDir } });
    seller = await createSeller(t);
  });
  afterAll(() => t.close());

  const row = async (key: string) => {
    const rows: Array<{ state: string; response_status: number | null }> = await t.dataSource.query(
      `SELECT state, response_status FROM idempotency_keys WHERE key = $1`,
      [key],
    );
    return rows[0];
  };

  it('replays a 201 creation with its status, body and content type, and runs the handler once', async () => {
    const body = { name: 'Replayed ebook', price: 250 };
    const post = () => t.http.post('/v1/products').set(seller.auth).set('Idempotency-Key', 'create-1').send(body);
    const first = await post().expect(201);
    const replay = await post().expect(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect(replay.headers['content-type']).toBe(first.headers['content-type']);
    // Still an authenticated response: the request id and the rate-limit headers are there.
    expect(replay.headers['x-request-id']).toBeDefined();
    expect(replay.headers['ratelimit-limit']).toBe(first.headers['ratelimit-limit']);
    expect(await row('create-1')).toEqual({ state: 'completed', response_status: 201 });
    const list = await t.http.get('/v1/products?per_page=100').set(seller.auth).expect(200);
    expect(list.body.products.filter((p: { name: string }) => p.name === 'Replayed ebook')).toHaveLength(1);
  });

  it('replays a 200 action (publish) with its 200 rather than running it again', async () => {
    const product = await createProduct(t, seller, COMPLETE_PRODUCT);
    await addLinkFile(t, seller, product.id);
    const post = () =>
      t.http.post(`/v1/products/${product.id}/publish`).set(seller.auth).set('Idempotency-Key', 'publish-1');
    const first = await post().expect(200);
    const replay = await post().expect(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect(await row('publish-1')).toEqual({ state: 'completed', response_status: 200 });
    // Run again without the key, the same request is refused: the replay did not run it.
    await t.http.post(`/v1/products/${product.id}/publish`).set(seller.auth).expect(409);
  });

  it('replays the first answer when it is an error too, from validation or from the handler', async () => {
    const invalid = () =>
      t.http.post('/v1/products').set(seller.auth).set('Idempotency-Key', 'error-1').send({ price: 10 });
    const first = await invalid().expect(422);
    expect(first.body.message).toBe('Validation failed.');
    expect(await row('error-1')).toEqual({ state: 'completed', response_status: 422 });
    const replay = await invalid().expect(422);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(first.body);
    // The key belongs to that request: a corrected body needs a key of its own.
    const corrected = await t.http
      .post('/v1/products')
      .set(seller.auth)
      .set('Idempotency-Key', 'error-1')
      .send({ name: 'After a 422' })
      .expect(422);
    expect(corrected.body.message).toBe('Idempotency key reused with a different request.');

    // A 409 of the order's state is its first answer as well, even once the state has changed.
    const product = await insertProduct(t, seller.storeId);
    const order = await createOrder(t, seller, orderBody(product.pid));
    const refund = () =>
      t.http.post(`/v1/orders/${order.order_number}/refund`).set(seller.auth).set('Idempotency-Key', 'error-2');
    const refused = await refund().expect(409);
    expect(refused.body.message).toBe('Only approved orders can be refunded.');
    await payJson(t, order.pay_token, { payment_method: 'mpesa', payment_number: '841234567' }).expect(200);
    const replayed = await refund().expect(409);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.body).toEqual(refused.body);
    await t.http
      .get(`/v1/orders/${order.order_number}`)
      .set(seller.auth)
      .expect(200, /"status":"approved"/);
    expect(await row('error-2')).toEqual({ state: 'completed', response_status: 409 });
  });

  it('frees the key after an answer that says "try again": a refund already in progress, an upload\'s error', async () => {
    const product = await insertProduct(t, seller.storeId);
    const order = await createOrder(t, seller, orderBody(product.pid));
    await payJson(t, order.pay_token, { payment_method: 'mpesa', payment_number: '841234567' }).expect(200);
    // The refund of another request holds the payment (its claim), as while the gateway answers it.
    await t.dataSource.query(
      `UPDATE payment_attempts SET refund_started_at = now()
        WHERE status = 'succeeded' AND order_id = (SELECT id FROM orders WHERE order_number = $1)`,
      [order.order_number],
    );
    const refund = () =>
      t.http.post(`/v1/orders/${order.order_number}/refund`).set(seller.auth).set('Idempotency-Key', 'passing-1');
    const busy = await refund().expect(409);
    expect(busy.body.message).toBe('A refund is already in progress.');
    expect(await row('passing-1')).toBeUndefined();
    await t.dataSource.query(
      `UPDATE payment_attempts SET refund_started_at = NULL WHERE order_id = (SELECT id FROM orders WHERE order_number = $1)`,
      [order.order_number],
    );
    const done = await refund().expect(200);
    expect(done.headers['idempotent-replayed']).toBeUndefined();
    expect(done.body.order.status).toBe('refunded');

    // An upload's key covers the route, not its parts: its error is not kept, a corrected upload runs.
    const target = await createProduct(t, seller);
    const twoFiles = await t.http
      .post(`/v1/products/${target.pid}/files`)
      .set(seller.auth)
      .set('Idempotency-Key', 'passing-2')
      .attach('file', randomBytes(1024), { filename: 'a.pdf', contentType: 'application/pdf' })
      .attach('file', randomBytes(1024), { filename: 'b.pdf', contentType: 'application/pdf' })
      .expect(422);
    expect(twoFiles.body.message).toBe('Validation failed.');
    expect(await row('passing-2')).toBeUndefined();
    await t.http
      .post(`/v1/products/${target.pid}/files`)
      .set(seller.auth)
      .set('Idempotency-Key', 'passing-2')
      .attach('file', randomBytes(1024), { filename: 'a.pdf', contentType: 'application/pdf' })
      .expect(201);
  });

  it('does not touch idempotency_keys for a request without the header', async () => {
    const repo = t.app.get(IdempotencyRepository);
    const calls: string[] = [];
    const originals = { claim: repo.claim, find: repo.find, complete: repo.complete, release: repo.release };
    for (const name of Object.keys(originals) as Array<keyof typeof originals>) {
      const original = originals[name].bind(repo) as (...args: unknown[]) => Promise<unknown>;
      (repo as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => {
        calls.push(name);
        return original(...args);
      };
    }
    try {
      const [{ n: before }] = await t.dataSource.query(`SELECT count(*)::int AS n FROM idempotency_keys`);
      await t.http.post('/v1/products').set(seller.auth).send({ name: 'No key' }).expect(201);
      await t.http.post('/v1/products').set(seller.auth).send({}).expect(422);
      const [{ n: after }] = await t.dataSource.query(`SELECT count(*)::int AS n FROM idempotency_keys`);
      expect(after).toBe(before);
      expect(calls).toEqual([]);
    } finally {
      Object.assign(repo, originals);
    }
  });

  it('422 for a key longer than 255 characters or empty, before anything is claimed', async () => {
    for (const key of ['k'.repeat(256), '']) {
      const res = await t.http
        .post('/v1/products')
        .set(seller.auth)
        .set('Idempotency-Key', key)
        .send({ name: 'Bad key' })
        .expect(422);
      expect(res.body).toEqual({
        status: 'error',
        message: 'Validation failed.',
        errors: { 'Idempotency-Key': ['Idempotency-Key must be 1 to 255 characters.'] },
      });
    }
    await t.http
      .post('/v1/products')
      .set(seller.auth)
      .set('Idempotency-Key', 'k'.repeat(255))
      .send({ name: 'Longest key' })
      .expect(201);
  });

  it('answers 500 and frees the key when the response cannot be stored', async () => {
    const repo = t.app.get(IdempotencyRepository);
    const original = repo.complete;
    repo.complete = () => Promise.reject(new Error('database went away'));
    try {
      const res = await t.http
        .post('/v1/products')
        .set(seller.auth)
        .set('Idempotency-Key', 'store-fails')
        .send({ name: 'Unstored' })
        .expect(500);
      expect(res.body).toEqual({ status: 'error', message: 'Internal server error.' });
    } finally {
      repo.complete = original;
    }
    expect(await row('store-fails')).toBeUndefined();
    const retried = await t.http
      .post('/v1/products')
      .set(seller.auth)
      .set('Idempotency-Key', 'store-fails')
      .send({ name: 'Unstored' })
      .expect(201);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
  });

  it('replays an upload before reading its parts: no second object in storage', async () => {
    const product = await createProduct(t, seller);
    const upload = () =>
      t.http
        .post(`/v1/products/${product.pid}/files`)
        .set(seller.auth)
        .set('Idempotency-Key', 'upload-1')
        .attach('file', randomBytes(64 * 1024), { filename: 'guide.pdf', contentType: 'application/pdf' });
    const first = await upload().expect(201);
    const objects = storedFiles();
    const replay = await upload().expect(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect(storedFiles()).toBe(objects);
    const files = await t.http.get(`/v1/products/${product.pid}/files`).set(seller.auth).expect(200);
    expect(files.body.files).toHaveLength(1);
  });

  const productsNamed = async (name: string) => {
    const list = await t.http.get('/v1/products?per_page=100').set(seller.auth).expect(200);
    return list.body.products.filter((p: { name: string }) => p.name === name).length;
  };

  it('a key left in flight by a process that stopped is 409 until its lease lapses, then the same request runs', async () => {
    const body = { name: 'Crashed mid-request', price: 90 };
    const post = (sent: object = body) =>
      t.http.post('/v1/products').set(seller.auth).set('Idempotency-Key', 'crash-1').send(sent);
    await post().expect(201);
    // What a process killed after claiming the key leaves: a claim nobody will settle or renew.
    await t.dataSource.query(
      `UPDATE idempotency_keys SET state = 'in_flight', response_status = NULL, response_body = NULL,
              lease_id = gen_random_uuid(), lease_expires_at = now() + interval '1 minute'
       WHERE key = 'crash-1'`,
    );
    const held = await post().expect(409);
    expect(held.body).toEqual({
      status: 'error',
      message: 'A request with this idempotency key is still in progress.',
    });

    await t.dataSource.query(
      `UPDATE idempotency_keys SET lease_expires_at = now() - interval '1 second' WHERE key = 'crash-1'`,
    );
    const other = await post({ ...body, price: 91 }).expect(422);
    expect(other.body.message).toBe('Idempotency key reused with a different request.');
    const retried = await post().expect(201);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect(await productsNamed('Crashed mid-request')).toBe(2);
    const settled: Array<{ state: string; lease_id: string | null; lease_expires_at: Date | null }> =
      await t.dataSource.query(`SELECT state, lease_id, lease_expires_at FROM idempotency_keys WHERE key = 'crash-1'`);
    expect(settled).toEqual([{ state: 'completed', lease_id: null, lease_expires_at: null }]);
    const replay = await post().expect(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(retried.body);
  });

  it('renews the claim while its request runs, so a slow request is never taken over', async () => {
    const claims = t.app.get(IdempotencyClaims);
    const repo = t.app.get(IdempotencyRepository);
    const original = repo.complete.bind(repo);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    claims.leaseSeconds = 0.6;
    repo.complete = async (...args) => {
      await gate;
      return original(...args);
    };
    const body = { name: 'Slow to answer', price: 30 };
    const post = () => t.http.post('/v1/products').set(seller.auth).set('Idempotency-Key', 'slow-1').send(body);
    try {
      const first = post().then((r) => r);
      // Three leases long: without renewal the retry below would take the key over and run.
      await new Promise((r) => setTimeout(r, 1800));
      const leases: Array<{ live: boolean }> = await t.dataSource.query(
        `SELECT lease_expires_at > now() AS live FROM idempotency_keys WHERE key = 'slow-1'`,
      );
      expect(leases).toEqual([{ live: true }]);
      await post().expect(409);
      release();
      expect((await first).status).toBe(201);
    } finally {
      repo.complete = original;
      claims.leaseSeconds = 60;
      release();
    }
    expect((await post().expect(201)).headers['idempotent-replayed']).toBe('true');
    expect(await productsNamed('Slow to answer')).toBe(1);
  });

  it('keeps renewing the claim after the client went away: a retry cannot run beside the first', async () => {
    const claims = t.app.get(IdempotencyClaims);
    const repo = t.app.get(IdempotencyRepository);
    const original = repo.complete.bind(repo);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let settled!: () => void;
    const done = new Promise<void>((resolve) => (settled = resolve));
    claims.leaseSeconds = 0.6;
    repo.complete = async (...args) => {
      await gate;
      try {
        return await original(...args);
      } finally {
        settled();
      }
    };
    const body = { name: 'Client gone', price: 30 };
    try {
      const first = t.http.post('/v1/products').set(seller.auth).set('Idempotency-Key', 'gone-1').send(body);
      first.end(() => undefined);
      await new Promise((r) => setTimeout(r, 300));
      first.abort();
      // Three leases after the client left, the request still holds its key.
      await new Promise((r) => setTimeout(r, 1800));
      const leases: Array<{ live: boolean }> = await t.dataSource.query(
        `SELECT lease_expires_at > now() AS live FROM idempotency_keys WHERE key = 'gone-1'`,
      );
      expect(leases).toEqual([{ live: true }]);
      await t.http.post('/v1/products').set(seller.auth).set('Idempotency-Key', 'gone-1').send(body).expect(409);
      release();
      await done;
    } finally {
      repo.complete = original;
      claims.leaseSeconds = 60;
      release();
    }
    expect(
      (await t.http.post('/v1/products').set(seller.auth).set('Idempotency-Key', 'gone-1').send(body).expect(201))
        .headers['idempotent-replayed'],
    ).toBe('true');
    expect(await productsNamed('Client gone')).toBe(1);
  });
});
