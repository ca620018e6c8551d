import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, chromium, Page } from 'playwright-core';
import { ApiKeysService } from '../../../src/modules/identity/api-keys/api-keys.service';
import { SellersService } from '../../../src/modules/identity/sellers/sellers.service';
import { createTestApp, TestApp } from '../../utils/test-app';
import { watchCsp } from '../../utils/csp';
import { insertFile, insertProduct } from '../billing/fixtures';

jest.setTimeout(300_000);

const ARTIFACTS = join(__dirname, '..', '..', 'artifacts');
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * The seller console walked as a seller would, in headless Chromium at desktop and phone widths:
 * the home page's figures and chart against `GET /v1/reports/sales`, with a screenshot of each
 * step under test/artifacts/, no console error and no content-security-policy violation.
 */
describe.each([1280, 390])('seller console in a real browser at %i px', (width) => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let cspViolations: string[];
  const consoleErrors: string[] = [];
  const web = () => `${t.baseUrl}/web`;
  const shot = async (name: string) => {
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, `console-${name}-${width}.png`), fullPage: true });
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
  };
  let storeId: number;
  let sellerId: number;
  let auth: { Authorization: string };

  beforeAll(async () => {
    t = await createTestApp({ listen: true });
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
    page = await browser.newPage({ viewport: { width, height: 900 } });
    cspViolations = await watchCsp(page);
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(`${page.url()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => consoleErrors.push(`${page.url()}: ${error.message}`));

    const email = `console-${width}-${Date.now()}@example.com`;
    await page.goto(`${web()}/signup`);
    await page.fill('#name', 'Lia Seller');
    await page.fill('#email', email);
    await page.fill('#password', 'a long enough password');
    await page.fill('#store_name', 'Lia Courses');
    await page.click('form button[type=submit]');
    await page.waitForURL(`${web()}/`);
    const sellers = t.app.get(SellersService);
    sellerId = (await sellers.findByEmail(email))!.id;
    storeId = (await sellers.findStoreOfSeller(sellerId))!.id;
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  afterEach(() => {
    expect(consoleErrors.splice(0)).toEqual([]);
    expect(cspViolations.splice(0)).toEqual([]);
  });

  it('home: a getting-started checklist until the first steps are done, then figures and a chart that match the reports API', async () => {
    await shot('home-new');
    const steps = page.getByTestId('getting-started');
    expect(await steps.isVisible()).toBe(true);
    expect(await page.locator('[data-testid=getting-started] li.done').count()).toBe(0);

    const product = await insertProduct(t, storeId, { name: 'Photo course', price: '150.00' });
    await insertFile(t, storeId, product.id, { name: 'course.pdf', externalUrl: 'https://example.com/course.pdf' });
    const { token } = await t.app
      .get(ApiKeysService)
      .create({ storeId, sellerId, name: 'ci', scopes: ['orders.read', 'orders.write'] });
    auth = { Authorization: `Bearer ${token}` };
    await page.reload();
    expect(await page.getByTestId('step-product').getAttribute('class')).toContain('done');
    expect(await page.getByTestId('step-integration').getAttribute('class')).toContain('done');
    expect(await page.getByTestId('step-order').getAttribute('class')).not.toContain('done');

    // Two sales today, one refunded: the first sale completes the checklist.
    const customer = { name: 'Rui Costa', email: `rui-${width}@example.com`, mobile_number: '+258841234567' };
    const orders: string[] = [];
    for (const amount of [150, 99.5]) {
      const created = (
        await t.http.post('/v1/orders').set(auth).send({ amount, product_pid: product.pid, customer }).expect(201)
      ).body;
      await t.http
        .post(`/pay/token/${created.pay_token}/pay`)
        .set('Accept', 'application/json')
        .send({ payment_method: 'mpesa', payment_number: '841234567' })
        .expect(200);
      orders.push(created.order_number);
    }
    await t.http.post(`/v1/orders/${orders[1]}/refund`).set(auth).expect(200);

    await page.reload();
    expect(await page.getByTestId('getting-started').count()).toBe(0);
    const report = (await t.http.get('/v1/reports/sales').set(auth).expect(200)).body.report;
    expect(report).toMatchObject({ gross: 249.5, refunded: 99.5, orders_paid: 2 });
    const figure = (id: string) => page.getByTestId(id).getAttribute('data-value').then(Number);
    expect(await figure('figure-gross')).toBe(report.gross);
    expect(await figure('figure-refunded')).toBe(report.refunded);
    expect(await figure('figure-orders-paid')).toBe(report.orders_paid);
    expect(await figure('figure-active-subscriptions')).toBe(report.active_subscriptions);
    expect(await figure('figure-mrr')).toBe(report.mrr);
    expect(await page.getByTestId('figure-gross').textContent()).toBe('249.50 MZN');
    expect(await page.getByTestId('figure-refunded').textContent()).toBe('99.50 MZN');

    const chart = page.getByTestId('revenue-chart');
    expect(await chart.locator('title').first().textContent()).toContain('Paid revenue per day');
    const bars = await chart
      .locator('[data-date]')
      .evaluateAll((els) => els.map((e) => [e.getAttribute('data-date'), Number(e.getAttribute('data-amount'))]));
    expect(bars).toEqual(report.days.map((d: { date: string; gross: number }) => [d.date, d.gross]));
    expect(bars).toHaveLength(30);
    const today = new Date().toISOString().slice(0, 10);
    expect(bars[29]).toEqual([today, 249.5]);
    expect(await chart.locator('rect.today').getAttribute('data-date')).toBe(today);
    expect(await chart.locator('text', { hasText: 'Today' }).count()).toBe(1);
    // Today's bar stands out (249.50 on a scale to 500.00) from the 1-unit stubs of days without sales.
    const heights = await chart
      .locator('rect[data-date]')
      .evaluateAll((els) => els.map((e) => Number(e.getAttribute('height'))));
    expect(heights[29]).toBeGreaterThan(50);
    expect(heights[0]).toBe(1);
    await shot('home');
  });
});
