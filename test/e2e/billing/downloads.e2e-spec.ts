import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import type { Response } from 'supertest';
import { createSeller, TestSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';
import { submit, webAgent } from '../identity/support/web';
import { DAY, sweepAt, subscribe } from '../subscriptions/helpers';
import { createOrder, insertProduct, orderBody, payJson } from './fixtures';

/** supertest hands the raw response stream to a custom parser; collect it as bytes. */
const binary = (res: Response, done: (err: Error | null, body: Buffer) => void) => {
  const stream = res as unknown as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  stream.on('end', () => done(null, Buffer.concat(chunks)));
};

const LIMIT = 3;
const UA = 'ReaderApp/2.1 (test)';

/**
 * decisions §16 through the real routes: the portal's links, `{pay_url}/download/{token}` served
 * from the storage driver, counting (ranges, HEAD, the limit, a race for the last download), the
 * 410 pages, and the seller's audit and reset. Run once per storage driver the tests can start.
 */
function downloadsOn(driver: string, env: () => Promise<Record<string, string>>, stop: () => Promise<void>) {
  describe(`buyers' download links (${driver} storage)`, () => {
    let t: TestApp;
    let seller: TestSeller;
    let other: TestSeller;
    let product: { id: number; pid: string };
    let fileId: number;
    const content = randomBytes(256 * 1024 + 33);

    beforeAll(async () => {
      t = await createTestApp({ env: { ...(await env()), DOWNLOAD_LIMIT: String(LIMIT) } });
      seller = await createSeller(t);
      other = await createSeller(t);
      product = await insertProduct(t, seller.storeId, { name: 'Guia' });
      const upload = await t.http
        .post(`/v1/products/${product.pid}/files`)
        .set(seller.auth)
        .attach('file', content, { filename: 'Guia completo.pdf', contentType: 'application/pdf' })
        .expect(201);
      fileId = upload.body.file.id;
    });
    afterAll(async () => {
      await t.close();
      await stop();
    });

    /** An approved order of the product, and the download link its portal shows now. */
    async function paidOrder(): Promise<{ orderNumber: string; transactionId: string; link: string }> {
      const created = await createOrder(t, seller, orderBody(product.pid));
      await payJson(t, created.pay_token, { payment_method: 'mpesa', payment_number: '841234567' }).expect(200);
      const order = (await t.http.get(`/v1/orders/${created.order_number}`).set(seller.auth).expect(200)).body.order;
      const link = await portalLink(created.order_number, order.transaction_id);
      return { orderNumber: created.order_number, transactionId: order.transaction_id, link };
    }

    async function portalLink(orderNumber: string, transactionId: string): Promise<string> {
      const page = await t.http.get(`/pay/order/${orderNumber}?transaction_id=${transactionId}`).expect(200);
      expect(page.text).not.toContain(t.config.urls.cdn);
      const match = new RegExp(`href="${t.config.urls.pay}(/download/[A-Za-z0-9_-]{38})"`).exec(page.text);
      expect(match).not.toBeNull();
      return `/pay${match![1]}`;
    }

    const audit = async (orderNumber: string) =>
      (await t.http.get(`/v1/orders/${orderNumber}/downloads`).set(seller.auth).expect(200)).body.downloads;

    it('serves the file like the CDN does (type, disposition, sandbox), counts it, and the audit shows it', async () => {
      const { orderNumber, link } = await paidOrder();
      expect(await audit(orderNumber)).toEqual([
        { file_id: fileId, name: 'Guia completo.pdf', count: 0, limit: LIMIT, last_downloaded_at: null, events: [] },
      ]);
      const res = await t.http.get(link).set('User-Agent', UA).buffer(true).parse(binary).expect(200);
      expect(Buffer.compare(res.body as Buffer, content)).toBe(0);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['content-length']).toBe(String(content.length));
      expect(res.headers['content-disposition']).toBe(`inline; filename*=UTF-8''Guia%20completo.pdf`);
      expect(res.headers['content-security-policy']).toMatch(/^default-src 'none'; sandbox(;|$)/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['accept-ranges']).toBe('bytes');
      expect(res.headers['cache-control']).toBe('private, no-store');

      const [row] = await audit(orderNumber);
      expect(row).toMatchObject({ file_id: fileId, count: 1, limit: LIMIT });
      expect(row.last_downloaded_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
      expect(row.events).toEqual([{ at: row.last_downloaded_at, ip_prefix: '127.0.0.0/24', user_agent: UA }]);
    });

    it('counts a Range from byte 0 but not one that continues a download, nor a HEAD', async () => {
      const { orderNumber, link } = await paidOrder();
      const head = await t.http.head(link).expect(200);
      expect(head.headers['content-length']).toBe(String(content.length));
      expect((await audit(orderNumber))[0].count).toBe(0);

      const first = await t.http.get(link).set('Range', 'bytes=0-99').buffer(true).parse(binary).expect(206);
      expect(first.headers['content-range']).toBe(`bytes 0-99/${content.length}`);
      expect(Buffer.compare(first.body as Buffer, content.subarray(0, 100))).toBe(0);
      expect((await audit(orderNumber))[0].count).toBe(1);

      // Cut short again, then resumed to the end: the continuations ask for less than one file.
      const middle = await t.http.get(link).set('Range', 'bytes=100-4999').buffer(true).parse(binary).expect(206);
      expect(Buffer.compare(middle.body as Buffer, content.subarray(100, 5000))).toBe(0);
      const rest = await t.http.get(link).set('Range', 'bytes=5000-').buffer(true).parse(binary).expect(206);
      expect(Buffer.compare(rest.body as Buffer, content.subarray(5000))).toBe(0);
      await t.http.get(link).set('Range', `bytes=${content.length}-`).expect(416);
      const [row] = await audit(orderNumber);
      expect(row.count).toBe(1);
      expect(row.events).toHaveLength(1);
    });

    it('a Range past byte 0 never counts: before any download, and however often it comes', async () => {
      const { orderNumber, link } = await paidOrder();
      const before = await t.http.get(link).set('Range', 'bytes=100-').buffer(true).parse(binary).expect(206);
      expect(Buffer.compare(before.body as Buffer, content.subarray(100))).toBe(0);
      for (let i = 0; i < 2 * LIMIT; i++) await t.http.get(link).set('Range', 'bytes=1-').expect(206);
      expect((await audit(orderNumber))[0]).toMatchObject({ count: 0, events: [] });
      await t.http.get(link).buffer(true).parse(binary).expect(200);
      expect((await audit(orderNumber))[0].count).toBe(1);
    });

    it('past DOWNLOAD_LIMIT: a 410 page that says why, a resumed download still works, and a reset opens it again', async () => {
      const { orderNumber, link } = await paidOrder();
      for (let i = 0; i < LIMIT; i++) await t.http.get(link).buffer(true).parse(binary).expect(200);
      const gone = await t.http.get(link).expect(410);
      expect(gone.headers['content-type']).toMatch(/^text\/html/);
      expect(gone.text).toContain('Download limit reached');
      expect(gone.text).toContain(`downloaded ${LIMIT} times`);
      await t.http.get(link).set('Range', 'bytes=0-').expect(410);
      // A download cut short continues where it stopped, limit or not.
      await t.http.get(link).set('Range', 'bytes=5000-').buffer(true).parse(binary).expect(206);
      expect((await audit(orderNumber))[0]).toMatchObject({ count: LIMIT });

      const readOnly = await seller.tokenWith(['orders.read']);
      await t.http
        .post(`/v1/orders/${orderNumber}/downloads/reset`)
        .set('Authorization', `Bearer ${readOnly}`)
        .expect(403);
      const reset = await t.http.post(`/v1/orders/${orderNumber}/downloads/reset`).set(seller.auth);
      expect(reset.status).toBe(200);
      expect(reset.body).toMatchObject({ status: 'success', message: 'Download counts reset.' });
      expect(reset.body.downloads[0]).toMatchObject({ file_id: fileId, count: 0, limit: LIMIT });
      expect(reset.body.downloads[0].events).toHaveLength(LIMIT);
      await t.http.get(link).buffer(true).parse(binary).expect(200);
      expect((await audit(orderNumber))[0].count).toBe(1);
    });

    it('two downloads racing for the last one: exactly one is served', async () => {
      const { orderNumber, link } = await paidOrder();
      for (let i = 0; i < LIMIT - 1; i++) await t.http.get(link).expect(200);
      const statuses = await Promise.all([1, 2, 3].map(async () => (await t.http.get(link)).status));
      expect(statuses.sort()).toEqual([200, 410, 410]);
      expect((await audit(orderNumber))[0].count).toBe(LIMIT);
    });

    it('a link expires 24 hours after the page that showed it; the portal gives a fresh one', async () => {
      const { orderNumber, transactionId, link } = await paidOrder();
      t.clock.advance(DAY - 60_000);
      await t.http.get(link).expect(200);
      t.clock.advance(120_000);
      const gone = await t.http.get(link).expect(410);
      expect(gone.text).toContain('This link has expired');
      const fresh = await portalLink(orderNumber, transactionId);
      expect(fresh).not.toBe(link);
      await t.http.get(fresh).expect(200);
      expect((await audit(orderNumber))[0].count).toBe(2);
    });

    it('is dead once the order is refunded (410 that says so); the portal offers no link then', async () => {
      const { orderNumber, transactionId, link } = await paidOrder();
      await t.http.post(`/v1/orders/${orderNumber}/refund`).set(seller.auth).expect(200);
      const gone = await t.http.get(link).expect(410);
      expect(gone.text).toContain('Order refunded');
      await t.http.head(link).expect(410);
      const page = await t.http.get(`/pay/order/${orderNumber}?transaction_id=${transactionId}`).expect(200);
      expect(page.text).not.toContain('/download/');
    });

    it('is dead once the subscription has expired (through the sweep)', async () => {
      const start = new Date(Date.now() + 2 * DAY);
      // `…0003`: paid now, declined on every renewal, so the subscription runs out.
      const sub = await subscribe(t, seller, { at: start, paymentNumber: '841230003' });
      await t.http
        .post(`/v1/products/${sub.product.pid}/files`)
        .set(seller.auth)
        .attach('file', Buffer.from('chapter one'), { filename: 'cap1.txt', contentType: 'text/plain' })
        .expect(201);
      const link = await portalLink(sub.orderNumber, sub.transactionId);
      await t.http.get(link).expect(200, 'chapter one');
      // Unpaid past end_date and the grace period: the sweep expires it.
      const end = new Date(sub.subscription.end_date);
      await sweepAt(t, new Date(end.getTime() - DAY));
      await sweepAt(t, new Date(end.getTime() + 3_600_000));
      await sweepAt(t, new Date(end.getTime() + 8 * DAY));
      const status = (await t.http.get(`/v1/subscriptions/${sub.subscriptionId}`).set(seller.auth).expect(200)).body
        .subscription.status;
      expect(status).toBe('expired');
      // The link is under 24 hours old when the clock is put back: only the subscription is wrong.
      t.clock.set(new Date(start.getTime() + 3_600_000));
      const gone = await t.http.get(link).expect(410);
      expect(gone.text).toContain('Subscription expired');
    });

    it("the dashboard's order page shows the counts and resets them after a confirmation", async () => {
      const { orderNumber, link } = await paidOrder();
      await t.http.get(link).set('User-Agent', UA).expect(200);
      const agent = webAgent(t);
      const login = await submit(agent, '/web/login', '/web/login', { email: seller.email, password: seller.password });
      expect(login.status).toBe(303);
      const page = (await agent.get(`/web/orders/${orderNumber}`).expect(200)).text;
      expect(page).toMatch(/data-testid="download-count">1 \/ 3</);
      expect(page).toContain('127.0.0.0/24');
      expect(page).toContain('Reset downloads…');
      const confirm = await agent.get(`/web/orders/${orderNumber}/downloads/reset`).expect(200);
      expect(confirm.text).toContain('Set the download counts');
      const reset = await submit(
        agent,
        `/web/orders/${orderNumber}/downloads/reset`,
        `/web/orders/${orderNumber}/downloads/reset`,
        {},
      );
      expect(reset.status).toBe(303);
      const after = (await agent.get(reset.headers.location.replace(t.config.urls.base, '')).expect(200)).text;
      expect(after).toMatch(/data-testid="download-count">0 \/ 3</);
      expect(after).toContain('Download counts reset');
      expect((await audit(orderNumber))[0].count).toBe(0);
      // Without the form's CSRF token nothing changes.
      await t.http.get(link).expect(200);
      await agent.post(`/web/orders/${orderNumber}/downloads/reset`).type('form').send({}).expect(403);
      expect((await audit(orderNumber))[0].count).toBe(1);
    });

    it('a link that was never issued is a 404 page; the audit keeps to the store and its scopes', async () => {
      const { orderNumber, link } = await paidOrder();
      const token = link.split('/').pop()!;
      const tampered = token.slice(0, 10) + (token[10] === 'A' ? 'B' : 'A') + token.slice(11);
      await t.http.get(`/pay/download/${tampered}`).expect(404);
      await t.http.get('/pay/download/short').expect(404);
      await t.http.get(`/pay/download/${'A'.repeat(38)}`).expect(404);

      await t.http.get(`/v1/orders/${orderNumber}/downloads`).expect(401);
      const writeOnly = await seller.tokenWith(['orders.write']);
      await t.http.get(`/v1/orders/${orderNumber}/downloads`).set('Authorization', `Bearer ${writeOnly}`).expect(403);
      await t.http
        .get(`/v1/orders/${orderNumber}/downloads`)
        .set(other.auth)
        .expect(404, { status: 'error', message: 'Resource not found.' });
      await t.http.post(`/v1/orders/${orderNumber}/downloads/reset`).set(other.auth).expect(404);
      await t.http.post('/v1/orders/ORD-NOPE/downloads/reset').set(seller.auth).expect(404);
    });
  });
}

downloadsOn(
  'local',
  async () => ({ DATA_DIR: `/tmp/commerce-downloads-${process.pid}` }),
  async () => undefined,
);

let s3: S3rver | undefined;
let s3Dir = '';
downloadsOn(
  's3 (s3rver)',
  async () => {
    s3Dir = mkdtempSync(join(tmpdir(), 'commerce-s3-'));
    s3 = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: s3Dir,
      configureBuckets: [{ name: 'products', configs: [] }],
    });
    const { port } = (await s3.run()) as { port: number };
    return {
      DATA_DIR: `/tmp/commerce-downloads-s3-${process.pid}`,
      STORAGE_DRIVER: 's3',
      S3_BUCKET: 'products',
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    };
  },
  async () => {
    await s3?.close();
    rmSync(s3Dir, { recursive: true, force: true });
  },
);
