import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import TestAgent from 'supertest/lib/agent';
import { createSeller, TestSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';
import { csrfFrom, follow, submit, webAgent } from '../identity/support/web';
import { createProduct, CreatedProduct } from './catalog-fixtures';

const dataDir = `/tmp/commerce-product-pages-${process.pid}`;

/** The Size column of each file row of the product page, by file name. */
function sizesOn(html: string): Record<string, string> {
  const rows = [
    ...html.matchAll(
      /data-testid="file-row"[\s\S]*?<td data-label="File">([^<]*)<\/td>\s*<td[^>]*data-testid="file-size">([^<]*)</g,
    ),
  ];
  return Object.fromEntries(rows.map(([, name, size]) => [name, size]));
}

/**
 * Dashboard → a product's files (catalog's README): what the page shows of each file, and what the
 * upload form answers for a body it cannot take.
 */
describe('dashboard: a product page’s files', () => {
  let t: TestApp;
  let seller: TestSeller;
  let agent: TestAgent;

  beforeAll(async () => {
    t = await createTestApp({ env: { DATA_DIR: dataDir } });
    seller = await createSeller(t);
    agent = webAgent(t);
    const res = await submit(agent, '/web/login', '/web/login', { email: seller.email, password: seller.password });
    expect(res.status).toBe(303);
  });
  afterAll(() => t.close());

  const page = async (product: CreatedProduct, status = 200) =>
    (await agent.get(`/web/products/${product.pid}`).expect(status)).text;
  const upload = async (product: CreatedProduct, name: string, bytes: number) => {
    const csrf = csrfFrom(await page(product));
    await agent
      .post(`/web/products/${product.pid}/files?_csrf=${encodeURIComponent(csrf)}`)
      .attach('file', Buffer.alloc(bytes, 7), name)
      .expect(303);
  };

  it('shows each upload’s size from its bytes, and a link as a link', async () => {
    const product = await createProduct(t, seller);
    await upload(product, 'course.zip', Math.round(2.38 * 1_048_576));
    await upload(product, 'notes.txt', 3000);
    await upload(product, 'tiny.txt', 12);
    await t.http
      .post(`/v1/products/${product.pid}/files`)
      .set(seller.auth)
      .send({ name: 'Video', link: 'https://videos.example.com/1' })
      .expect(201);
    const api = (await t.http.get(`/v1/products/${product.pid}/files`).set(seller.auth).expect(200)).body.files;
    expect(api.map((f: { name: string; size: number }) => [f.name, f.size])).toEqual([
      ['course.zip', 2.38],
      ['notes.txt', 0],
      ['tiny.txt', 0],
      ['Video', 0],
    ]);
    expect(sizesOn(await page(product))).toEqual({
      'course.zip': '2.38 MB',
      'notes.txt': '3 KB',
      'tiny.txt': '12 B',
      Video: 'link',
    });
  });

  describe('a body the upload form cannot take', () => {
    const storedObjects = () => {
      const root = join(dataDir, 'files');
      return existsSync(root) ? readdirSync(root).flatMap((dir) => readdirSync(join(root, dir))) : [];
    };

    it.each([
      ['cut off inside the file', 'Content-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nabc'],
      ['cut off inside the part headers', 'Content-Disposition: form-da'],
    ])('%s: back to the product page, with the message beside the file field; nothing kept', async (_, rest) => {
      const product = await createProduct(t, seller);
      const csrf = csrfFrom(await page(product));
      const before = storedObjects();
      const posted = await agent
        .post(`/web/products/${product.pid}/files?_csrf=${encodeURIComponent(csrf)}`)
        .set('Content-Type', 'multipart/form-data; boundary=XX')
        .send(Buffer.from(`--XX\r\n${rest}`))
        .expect(303);
      // Post/redirect/get: the product's page, not the form's address (`/files?_csrf=…`).
      expect(posted.headers.location).toBe(`/web/products/${product.pid}#files`);
      const res = await follow(agent, posted);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.text).toContain('data-testid="upload-form"');
      expect(res.text).toMatch(
        /data-testid="error-file">The upload did not arrive whole\. Choose the file and upload it again\.</,
      );
      expect(res.text).toContain('data-testid="no-files"');
      const files = await t.http.get(`/v1/products/${product.pid}/files`).set(seller.auth).expect(200);
      expect(files.body.files).toEqual([]);
      expect(storedObjects().sort()).toEqual(before.sort());
    });

    it('a file in another field: back to the product page, with the API’s message once', async () => {
      const product = await createProduct(t, seller);
      const csrf = csrfFrom(await page(product));
      const posted = await agent
        .post(`/web/products/${product.pid}/files?_csrf=${encodeURIComponent(csrf)}`)
        .attach('document', Buffer.from('x'), 'a.txt')
        .expect(303);
      const res = await follow(agent, posted);
      expect(await page(product)).not.toContain('data-testid="error-file"');
      expect(res.text).toContain(
        'data-testid="error-file">Upload exactly one file, in the multipart field &quot;file&quot;.<',
      );
    });
  });
});
