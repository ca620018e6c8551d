import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Browser } from 'playwright-core';
import { launchBrowser } from '../../utils/browser';
import { watchCsp } from '../../utils/csp';
import { createSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';

jest.setTimeout(120_000);

async function waitFor(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Helmet's headers on every surface; no page can be framed; Swagger UI works under its policy. */
describe('security headers', () => {
  let t: TestApp;
  let browser: Browser;
  let framer: Server;
  let framerUrl: string;

  beforeAll(async () => {
    t = await createTestApp({ listen: true });
    // Another origin that tries to frame our pages.
    framer = createServer((req, res) => {
      const target = new URL(req.url ?? '/', 'http://x').searchParams.get('src') ?? '';
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<iframe id="victim" src="${target}"></iframe>`);
    });
    await new Promise<void>((resolve) => framer.listen(0, '127.0.0.1', resolve));
    framerUrl = `http://127.0.0.1:${(framer.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => framer?.close(resolve));
    await t?.close();
  });

  it.each([
    ['API', '/v1/health'],
    ['API error', '/v1/nope'],
    ['dashboard', '/web/login'],
    ['OAuth consent', '/web/oauth/authorize?client_id=x'],
    ['checkout', '/pay/token/unknown'],
    ['CDN', '/cdn/unknown/file.pdf'],
    ['docs', '/docs'],
  ])('%s (%s): no framing, no sniffing, a CSP', async (_surface, path) => {
    const res = await t.http.get(path);
    expect(res.status).toBeLessThan(500);
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    expect(res.headers['referrer-policy']).toBe('no-referrer');
  });

  it('pages allow scripts and styles only from the service and its own hashed inline blocks', async () => {
    const csp = (await t.http.get('/web/login')).headers['content-security-policy'];
    expect(csp).toMatch(/script-src 'self'(;| 'sha256-)/);
    expect(csp).toMatch(/style-src 'self' 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('upgrade-insecure-requests');
  });

  it('uploaded files can be embedded by sellers’ sites; API answers cannot', async () => {
    expect((await t.http.get('/cdn/unknown/file.pdf')).headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect((await t.http.get('/v1/health')).headers['cross-origin-resource-policy']).toBe('same-origin');
  });

  it.each(['/web/oauth/authorize?client_id=x&scope=user.read', '/web/login', '/pay/token/unknown'])(
    'a page of another origin cannot frame %s',
    async (path) => {
      const page = await browser.newPage();
      const blocked: string[] = [];
      page.on('console', (m) => blocked.push(m.text()));
      await page.goto(`${framerUrl}/?src=${encodeURIComponent(`${t.baseUrl}${path}`)}`);
      await waitFor(() => /frame-ancestors|X-Frame-Options|Refused to (display|frame)/.test(blocked.join('\n')));
      // The frame never shows our document: Chromium puts its error page in its place.
      const frame = page.frames().find((f) => f !== page.mainFrame())!;
      expect(await frame.evaluate('document.querySelector("form[method=post], main") === null').catch(() => true)).toBe(
        true,
      );
      await page.close();
    },
  );

  it('Swagger UI at /docs renders the API under its own policy, with no violation', async () => {
    const page = await browser.newPage();
    const violations = await watchCsp(page);
    await page.goto(`${t.baseUrl}/docs`);
    await page.waitForSelector('.swagger-ui .info .title', { timeout: 20_000 });
    expect(await page.textContent('.swagger-ui .info .title')).toContain('Commerce API');
    await page.waitForSelector('.opblock', { timeout: 20_000 });
    expect(await page.locator('.opblock').count()).toBeGreaterThan(20);
    expect(violations).toEqual([]);
    await page.close();
  });

  it('the dashboard pages render with their styles applied (the hashes match the templates)', async () => {
    await createSeller(t);
    const page = await browser.newPage();
    const violations = await watchCsp(page);
    await page.goto(`${t.baseUrl}/web/login`);
    // The layout's inline style block sets the page background.
    expect(await page.evaluate('getComputedStyle(document.body).backgroundColor')).not.toBe('rgba(0, 0, 0, 0)');
    expect(violations).toEqual([]);
    await page.close();
  });
});
