import { join } from 'node:path';
import { Browser, Page } from 'playwright-core';
import { customerBody, sellerApi } from '../../factories/api';
import { ApiKeysService } from '../../../src/modules/identity/api-keys/api-keys.service';
import { expectNoPageErrors, launchBrowser, openPage, screenshot, signUpInDashboard } from '../../utils/browser';
import { createTestApp, TestApp } from '../../utils/test-app';

jest.setTimeout(240_000);

const ARTIFACTS = join(__dirname, '..', '..', 'artifacts');

/**
 * The dashboard's "Test mode" switch in headless Chromium (README, *Test mode*): on, the pages show
 * the test side only, under a banner, and new keys are test keys; off, the live side again.
 */
describe.each([1280, 390])('the Test mode switch in a real browser at %i px', (width) => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let consoleErrors: string[];
  const web = () => `${t.baseUrl}/web`;
  const shot = (name: string) => screenshot(page, ARTIFACTS, `test-mode-${name}-${width}`, width);

  beforeAll(async () => {
    t = await createTestApp({ listen: true });
    browser = await launchBrowser();
    ({ page, consoleErrors } = await openPage(browser, width));
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });
  afterEach(() => expectNoPageErrors({ consoleErrors }));

  it('switches the session to the test side and back', async () => {
    const email = `switch-${width}-${Date.now()}@example.com`;
    const { sellerId, storeId } = await signUpInDashboard(page, t, {
      name: 'Tess Seller',
      email,
      password: 'a long enough password',
      storeName: 'Tess Books',
    });

    // A live order and a test order of the same store, made through the API.
    const keys = t.app.get(ApiKeysService);
    const scopes = ['products.write', 'orders.write'];
    const liveKey = (await keys.create({ storeId, sellerId, name: 'live', scopes })).token;
    const testKey = (await keys.create({ storeId, sellerId, name: 'test', scopes, test: true })).token;
    const orderWith = async (token: string, name: string) => {
      const api = sellerApi(t.http, { Authorization: `Bearer ${token}` });
      const product = await api.product({ name, price: 40 });
      return (await api.order({ amount: 40, product_pid: product.pid, customer: customerBody('b@example.com') }))
        .order_number;
    };
    const liveOrder = await orderWith(liveKey, 'Live notebook');
    const testOrder = await orderWith(testKey, 'Test notebook');

    const rows = async () =>
      page.$$eval('[data-testid="order-row"]', (els) => els.map((el) => el.getAttribute('data-order-number')));
    const banner = page.getByTestId('test-mode-banner');
    const toggle = page.getByTestId('test-mode-switch');

    await page.goto(`${web()}/orders`);
    expect(await rows()).toEqual([liveOrder]);
    expect(await banner.count()).toBe(0);
    expect(await toggle.getAttribute('aria-checked')).toBe('false');
    await shot('off');

    await toggle.click();
    await page.waitForURL(`${web()}/orders`);
    await banner.waitFor();
    expect(await banner.textContent()).toContain('Test mode');
    expect(await page.getByTestId('test-mode-switch').getAttribute('aria-checked')).toBe('true');
    expect(await rows()).toEqual([testOrder]);
    await shot('on');

    // A key made while the switch is on is a test key.
    await page.goto(`${web()}/settings/api`);
    await banner.waitFor();
    await page.fill('#name', 'From the dashboard');
    await page.check('input[name=scopes][value="products.read"]');
    await page.click('form button:has-text("Create key")');
    const token = (await page.getByTestId('api-key-token').textContent())!.trim();
    expect(token).toMatch(/^sk_test_[0-9A-Za-z]{40}$/);
    const products = await t.http.get('/v1/products').set('Authorization', `Bearer ${token}`).expect(200);
    expect(products.body.products.map((p: { name: string }) => p.name)).toEqual(['Test notebook']);

    await page.goto(`${web()}/orders`);
    await page.getByTestId('test-mode-switch').click();
    await page.waitForURL(`${web()}/orders`);
    expect(await page.getByTestId('test-mode-banner').count()).toBe(0);
    expect(await rows()).toEqual([liveOrder]);
  });
});
