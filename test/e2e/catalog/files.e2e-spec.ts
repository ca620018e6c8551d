import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Response } from 'supertest';
import { definePlugin, type FileStorage } from '../../../src/plugins';
import { NotFoundError } from '../../../src/common/errors/app-error';
import { ProductFilesService } from '../../../src/modules/catalog/files/product-files.service';
import { createSeller, TestSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';
import { createProduct, CreatedProduct, forbidden, NOT_FOUND } from './catalog-fixtures';

const dataDir = `/tmp/commerce-catalog-files-${process.pid}`;

/** The path of a `{cdn_url}` link, for supertest (the app is not listening). */
const cdnPath = (t: TestApp, link: string) => {
  expect(link.startsWith(`${t.config.urls.cdn}/`)).toBe(true);
  return link.slice(t.config.urls.base.length);
};

/** supertest hands the raw response stream to a custom parser; collect it as bytes. */
const binaryParser = (res: Response, done: (err: Error | null, body: Buffer) => void) => {
  const stream = res as unknown as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  stream.on('end', () => done(null, Buffer.concat(chunks)));
};

describe('Product files', () => {
  let t: TestApp;
  let seller: TestSeller;
  let other: TestSeller;
  let product: CreatedProduct;

  beforeAll(async () => {
    t = await createTestApp({ env: { DATA_DIR: dataDir } });
    seller = await createSeller(t);
    other = await createSeller(t);
    product = await createProduct(t, seller);
  });
  afterAll(() => t.close());

  describe('upload and download', () => {
    const content = randomBytes(300 * 1024 + 17);
    let file: { id: number; link: string; [k: string]: unknown };

    beforeAll(async () => {
      const res = await t.http
        .post(`/v1/products/${product.pid}/files`)
        .set(seller.auth)
        .attach('file', content, { filename: 'Guia completo.pdf', contentType: 'application/pdf' })
        .expect(201);
      expect(res.body.status).toBe('success');
      expect(res.body.message).toBe('File added successfully.');
      file = res.body.file;
    });

    it('answers with the product file of the contract', () => {
      expect(file).toEqual({
        id: expect.any(Number),
        name: 'Guia completo.pdf',
        link: expect.stringMatching(new RegExp(`^${t.config.urls.cdn}/[0-9A-Za-z]{32}/Guia%20completo\\.pdf$`)),
        size: 0.29,
        format: 'pdf',
        format_type: 'MB',
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/),
      });
    });

    it('stores the bytes under $DATA_DIR/files, not in the database', () => {
      const key = file.link.split('/').slice(-2)[0];
      expect(existsSync(join(dataDir, 'files', key.slice(0, 2), key))).toBe(true);
    });

    it('serves the same bytes at the link without a token, with its content type', async () => {
      const res = await t.http.get(cdnPath(t, file.link)).buffer(true).parse(binaryParser).expect(200);
      expect(Buffer.compare(res.body, content)).toBe(0);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['content-length']).toBe(String(content.length));
      expect(res.headers['accept-ranges']).toBe('bytes');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    });

    it('serves a byte range with 206', async () => {
      const res = await t.http
        .get(cdnPath(t, file.link))
        .set('Range', 'bytes=100-1123')
        .buffer(true)
        .parse(binaryParser)
        .expect(206);
      expect(res.headers['content-range']).toBe(`bytes 100-1123/${content.length}`);
      expect(res.headers['content-length']).toBe('1024');
      expect(Buffer.compare(res.body, content.subarray(100, 1124))).toBe(0);
    });

    it('serves an open-ended and a suffix range', async () => {
      const tail = await t.http
        .get(cdnPath(t, file.link))
        .set('Range', 'bytes=-10')
        .buffer(true)
        .parse(binaryParser)
        .expect(206);
      expect(Buffer.compare(tail.body, content.subarray(content.length - 10))).toBe(0);
      const rest = await t.http
        .get(cdnPath(t, file.link))
        .set('Range', `bytes=${content.length - 5}-`)
        .buffer(true)
        .parse(binaryParser)
        .expect(206);
      expect(Buffer.compare(rest.body, content.subarray(content.length - 5))).toBe(0);
    });

    it('416 for a range past the end', async () => {
      const res = await t.http.get(cdnPath(t, file.link)).set('Range', `bytes=${content.length}-`).expect(416);
      expect(res.headers['content-range']).toBe(`bytes */${content.length}`);
    });

    it('answers HEAD with the headers only', async () => {
      const res = await t.http.head(cdnPath(t, file.link)).expect(200);
      expect(res.headers['content-length']).toBe(String(content.length));
      expect(res.headers['content-type']).toBe('application/pdf');
    });

    it('404 for a wrong file name or an unknown key', async () => {
      const path = cdnPath(t, file.link);
      await t.http.get(path.replace(/[^/]+$/, 'other.pdf')).expect(404);
      const res = await t.http.get(`/cdn/${'A'.repeat(32)}/Guia%20completo.pdf`).expect(404);
      expect(res.body).toEqual(NOT_FOUND);
    });

    it('lists the file', async () => {
      const res = await t.http.get(`/v1/products/${product.id}/files`).set(seller.auth).expect(200);
      expect(res.body).toEqual({ status: 'success', files: expect.arrayContaining([file]) });
    });
  });

  it('takes the display name from the form and keeps the extension in the link', async () => {
    const res = await t.http
      .post(`/v1/products/${product.id}/files`)
      .set(seller.auth)
      .field('name', 'Capítulo 1')
      .attach('file', Buffer.from('hello'), { filename: 'cap1.txt', contentType: 'text/plain' })
      .expect(201);
    expect(res.body.file).toMatchObject({ name: 'Capítulo 1', format: 'txt', size: 0 });
    expect(res.body.file.link).toMatch(/\/Cap%C3%ADtulo%201\.txt$/);
    const download = await t.http.get(cdnPath(t, res.body.file.link)).expect(200);
    expect(download.text).toBe('hello');
    expect(download.headers['content-type']).toBe('text/plain; charset=utf-8');
  });

  it('422 for a multipart upload in another field', async () => {
    const res = await t.http
      .post(`/v1/products/${product.id}/files`)
      .set(seller.auth)
      .attach('document', Buffer.from('x'), 'a.txt')
      .expect(422);
    expect(res.body.errors.file).toBeDefined();
  });

  describe('a cut-off multipart body', () => {
    const cutOff = (name: string) =>
      Buffer.from(`--XX\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n\r\nabc`);
    const storedObjects = () => {
      const root = join(dataDir, 'files');
      return existsSync(root) ? readdirSync(root).flatMap((dir) => readdirSync(join(root, dir))) : [];
    };

    it.each([
      ['inside the file', cutOff('a.txt')],
      ['inside the part headers', Buffer.from('--XX\r\nContent-Disposition: form-da')],
      ['after a field', Buffer.from('--XX\r\nContent-Disposition: form-data; name="name"\r\n\r\nAula')],
      ['after a whole file', Buffer.concat([cutOff('b.txt'), Buffer.from('\r\n--XX\r\n')])],
    ])('400 Malformed multipart body. when it ends %s, and nothing is kept', async (_, body) => {
      const fresh = await createProduct(t, seller);
      const before = storedObjects();
      const res = await t.http
        .post(`/v1/products/${fresh.id}/files`)
        .set(seller.auth)
        .set('Content-Type', 'multipart/form-data; boundary=XX')
        .send(body)
        .expect(400);
      expect(res.body).toEqual({ status: 'error', message: 'Malformed multipart body.' });
      const list = await t.http.get(`/v1/products/${fresh.id}/files`).set(seller.auth).expect(200);
      expect(list.body.files).toEqual([]);
      expect(storedObjects().sort()).toEqual(before.sort());
    });
  });

  describe('links', () => {
    it('adds an external link with format link', async () => {
      const res = await t.http
        .post(`/v1/products/${product.pid}/files`)
        .set(seller.auth)
        .send({ name: 'Aula 1', link: 'https://videos.example.com/aula-1' })
        .expect(201);
      expect(res.body.file).toEqual({
        id: expect.any(Number),
        name: 'Aula 1',
        link: 'https://videos.example.com/aula-1',
        size: 0,
        format: 'link',
        format_type: 'MB',
        created_at: expect.any(String),
      });
    });

    it('422 without name and link, or with a link that is not a URL', async () => {
      const empty = await t.http.post(`/v1/products/${product.pid}/files`).set(seller.auth).send({}).expect(422);
      expect(Object.keys(empty.body.errors).sort()).toEqual(['link', 'name']);
      const bad = await t.http
        .post(`/v1/products/${product.pid}/files`)
        .set(seller.auth)
        .send({ name: 'x', link: 'javascript:alert(1)' })
        .expect(422);
      expect(Object.keys(bad.body.errors)).toEqual(['link']);
    });
  });

  describe('DELETE /v1/products/{id}/files/{file_id}', () => {
    it('deletes an upload and its stored bytes', async () => {
      const created = await t.http
        .post(`/v1/products/${product.id}/files`)
        .set(seller.auth)
        .attach('file', Buffer.from('bye'), 'bye.zip')
        .expect(201);
      const { id, link } = created.body.file;
      const res = await t.http.delete(`/v1/products/${product.id}/files/${id}`).set(seller.auth).expect(200);
      expect(res.body).toEqual({
        status: 'success',
        message: 'File deleted successfully.',
        data: { product_pid: product.pid, file_id: id },
      });
      await t.http.get(cdnPath(t, link)).expect(404);
      const key = link.split('/').slice(-2)[0];
      expect(existsSync(join(dataDir, 'files', key.slice(0, 2), key))).toBe(false);
      await t.http.delete(`/v1/products/${product.id}/files/${id}`).set(seller.auth).expect(404);
    });

    it('deletions of one file at once: one succeeds, the others are 404', async () => {
      const created = await t.http
        .post(`/v1/products/${product.id}/files`)
        .set(seller.auth)
        .send({ name: 'Raced', link: 'https://x.example.com/raced.pdf' })
        .expect(201);
      const files = t.app.get(ProductFilesService);
      const outcomes = await Promise.allSettled(
        Array.from({ length: 8 }, () => files.delete(seller.storeId, product.pid, created.body.file.id)),
      );
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      for (const o of outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected'))
        expect(o.reason).toBeInstanceOf(NotFoundError);
    });

    it('404 for a file of another product, a non-numeric id and an unknown product', async () => {
      const second = await createProduct(t, seller);
      const created = await t.http
        .post(`/v1/products/${second.id}/files`)
        .set(seller.auth)
        .send({ name: 'L', link: 'https://x.example.com' });
      await t.http.delete(`/v1/products/${product.id}/files/${created.body.file.id}`).set(seller.auth).expect(404);
      await t.http.delete(`/v1/products/${product.id}/files/abc`).set(seller.auth).expect(404);
      const res = await t.http.delete(`/v1/products/prod_missing/files/1`).set(seller.auth).expect(404);
      expect(res.body).toEqual(NOT_FOUND);
    });
  });

  describe('another store', () => {
    it('404 on every files route for another store product, and no upload is stored', async () => {
      const foreign = await createProduct(t, other);
      const foreignFile = await t.http
        .post(`/v1/products/${foreign.id}/files`)
        .set(other.auth)
        .send({ name: 'L', link: 'https://x.example.com' })
        .expect(201);
      const before = countStored();
      const upload = await t.http
        .post(`/v1/products/${foreign.pid}/files`)
        .set(seller.auth)
        .attach('file', Buffer.from('sneaky'), 'x.txt')
        .expect(404);
      expect(upload.body).toEqual(NOT_FOUND);
      expect(countStored()).toBe(before);
      await t.http
        .post(`/v1/products/${foreign.pid}/files`)
        .set(seller.auth)
        .send({ name: 'L', link: 'https://x.example.com' })
        .expect(404);
      await t.http.get(`/v1/products/${foreign.id}/files`).set(seller.auth).expect(404);
      await t.http.delete(`/v1/products/${foreign.id}/files/${foreignFile.body.file.id}`).set(seller.auth).expect(404);
      const still = await t.http.get(`/v1/products/${foreign.id}/files`).set(other.auth).expect(200);
      expect(still.body.files).toHaveLength(1);
    });
  });

  describe('authentication and scopes', () => {
    const routes: [string, string, string][] = [
      ['post', '/v1/products/1/files', 'files.write'],
      ['get', '/v1/products/1/files', 'files.read'],
      ['delete', '/v1/products/1/files/1', 'files.write'],
    ];

    it.each(routes)('%s %s: 401 without a token', async (method, path) => {
      const res = await (t.http as any)[method](path).expect(401);
      expect(res.body).toEqual({ status: 'error', message: 'Token not provided' });
    });

    it.each(routes)('%s %s: 403 without %s (products scopes do not count)', async (method, path, scope) => {
      const granted = ['products.read', 'products.write', scope.endsWith('.read') ? 'files.write' : 'files.read'];
      const token = await seller.tokenWith(granted as any);
      const res = await (t.http as any)[method](path).set('Authorization', `Bearer ${token}`).expect(403);
      expect(res.body).toEqual(forbidden(scope, granted));
    });

    it('401 before any upload is read or stored', async () => {
      const before = countStored();
      await t.http.post(`/v1/products/${product.id}/files`).attach('file', Buffer.from('x'), 'x.txt').expect(401);
      expect(countStored()).toBe(before);
    });
  });

  function countStored(): number {
    const root = join(dataDir, 'files');
    if (!existsSync(root)) return 0;
    return readdirSync(root).reduce((n, dir) => n + readdirSync(join(root, dir)).length, 0);
  }
});

describe('Upload size limit', () => {
  let t: TestApp;
  let seller: TestSeller;

  beforeAll(async () => {
    t = await createTestApp({ env: { MAX_FILE_MB: '1', DATA_DIR: `${dataDir}-limit` } });
    seller = await createSeller(t);
  });
  afterAll(() => t.close());

  it('413 Payload too large. over MAX_FILE_MB, and nothing is kept', async () => {
    const product = await createProduct(t, seller);
    const res = await t.http
      .post(`/v1/products/${product.id}/files`)
      .set(seller.auth)
      .attach('file', Buffer.alloc(1024 * 1024 + 1, 1), 'big.bin')
      .expect(413);
    expect(res.body).toEqual({ status: 'error', message: 'Payload too large.' });
    const list = await t.http.get(`/v1/products/${product.id}/files`).set(seller.auth).expect(200);
    expect(list.body.files).toEqual([]);
    const root = join(`${dataDir}-limit`, 'files');
    const stored = existsSync(root) ? readdirSync(root).flatMap((dir) => readdirSync(join(root, dir))) : [];
    expect(stored).toEqual([]);
  });

  it('accepts a file of exactly MAX_FILE_MB', async () => {
    const product = await createProduct(t, seller);
    const res = await t.http
      .post(`/v1/products/${product.id}/files`)
      .set(seller.auth)
      .attach('file', Buffer.alloc(1024 * 1024, 1), 'exact.bin')
      .expect(201);
    expect(res.body.file).toMatchObject({ size: 1, format: 'bin' });
  });
});

describe('A storage driver that fails while it stores', () => {
  let t: TestApp;
  let seller: TestSeller;
  const deleted: string[] = [];

  beforeAll(async () => {
    // Takes the first chunk, then fails the way a full disk does: its pipeline destroys the source.
    const failing: FileStorage = {
      put: async (_key, body) => {
        await pipeline(body, new Writable({ write: (_chunk, _encoding, done) => done(new Error('No space left')) }));
        return { size: 0 };
      },
      open: () => Promise.reject(new Error('not used')),
      delete: async (key) => void deleted.push(key),
    };
    t = await createTestApp({
      env: { STORAGE_DRIVER: 'failing' },
      plugins: [
        definePlugin({ name: 'failing-storage', storageDrivers: [{ name: 'failing', create: () => failing }] }),
      ],
    });
    seller = await createSeller(t);
  });
  afterAll(() => t.close());

  it("is our 500, not the client's 400, and no file is recorded", async () => {
    const product = await createProduct(t, seller);
    const res = await t.http
      .post(`/v1/products/${product.id}/files`)
      .set(seller.auth)
      .attach('file', randomBytes(200 * 1024), 'a.bin')
      .expect(500);
    expect(res.body).toEqual({ status: 'error', message: 'Internal server error.' });
    expect(deleted).toHaveLength(1);
    const list = await t.http.get(`/v1/products/${product.id}/files`).set(seller.auth).expect(200);
    expect(list.body.files).toEqual([]);
  });
});
