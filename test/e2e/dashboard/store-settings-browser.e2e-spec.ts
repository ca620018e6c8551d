import { Browser, Page } from 'playwright-core';
import { SellersService } from '../../../src/modules/identity/sellers/sellers.service';
import { ApiKeysService } from '../../../src/modules/identity/api-keys/api-keys.service';
import { expectNoPageErrors, launchBrowser, openPage, screenshot, signUpInDashboard } from '../../utils/browser';
import { createTestApp, TestApp } from '../../utils/test-app';
import { insertProduct, orderBody } from '../billing/fixtures';

jest.setTimeout(300_000);

/** Where the screenshots go (SHOTS_DIR overrides it): looked at by a person, not compared. */
const SHOTS = process.env.SHOTS_DIR ?? '/tmp/shots-settings';

/**
 * Settings → Store in headless Chromium at desktop and phone widths: the field messages, a new
 * brand and logo on the page and on the buyer's checkout, and the currency shown read-only once the
 * store has an order; no horizontal scroll, no console error, no content-security-policy violation.
 */
describe.each([1280, 390])('store settings in a real browser at %i px', (width) => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let cspViolations: string[];
  let consoleErrors: string[];
  const web = () => `${t.baseUrl}/web`;
  const shot = (name: string) => screenshot(page, SHOTS, `store-settings-${name}-${width}`, width);
  let storeId: number;
  let sellerId: number;

  beforeAll(async () => {
    t = await createTestApp({ listen: true });
    browser = await launchBrowser();
    // A refused form is answered 422 on purpose; Chromium logs the status.
    ({ page, consoleErrors, cspViolations } = await openPage(browser, width, { expectedStatuses: [422] }));

    const email = `settings-${width}-${Date.now()}@example.com`;
    ({ sellerId, storeId } = await signUpInDashboard(page, t, {
      name: 'Lia Seller',
      email,
      password: 'a long enough password',
      storeName: 'Lia Courses',
    }));
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  afterEach(() => expectNoPageErrors({ consoleErrors, cspViolations }));

  it('reached from the navigation; messages beside each field; a new brand and logo saved and shown', async () => {
    await page.getByRole('link', { name: 'Store', exact: true }).click();
    await page.waitForURL(`${web()}/settings/store`);
    expect(await page.locator('#brand').inputValue()).toBe('Lia Courses');
    expect(await page.locator('#currency').inputValue()).toBe('MZN');
    await shot('form');

    await page.fill('#brand', '');
    await page.fill('#contact_number', 'call me');
    await page.fill('#logo_url', 'not a url');
    await page.click('form[data-testid=store-form] button[type=submit]');
    expect(await page.getByTestId('error-brand').textContent()).toBe('brand is required.');
    expect(await page.getByTestId('error-contact_number').textContent()).toBe('contact_number must be a phone number.');
    expect(await page.getByTestId('error-logo_url').textContent()).toBe('logo_url must be an http(s) URL.');
    expect((await t.app.get(SellersService).findStore(storeId))!.brand).toBe('Lia Courses');
    await shot('errors');

    // The logo is an image this server serves, so the screenshots show it without the network.
    const logo = `${t.baseUrl}/web/favicon.svg`;
    await page.fill('#brand', 'Lia Photo School');
    await page.fill('#contact_number', '+258 84 123 4567');
    await page.fill('#logo_url', logo);
    await page.click('form[data-testid=store-form] button[type=submit]');
    await page.waitForURL(`${web()}/settings/store?saved=1`);
    expect(await page.getByTestId('saved').textContent()).toBe('Saved.');
    expect(await page.locator('#brand').inputValue()).toBe('Lia Photo School');
    expect(await page.getByTestId('logo-preview').getAttribute('src')).toBe(logo);
    expect(
      await page
        .getByTestId('logo-preview')
        .evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
    ).toBeGreaterThan(0);
    await shot('saved');

    // The Emails page names the sender by the new brand.
    await page.getByRole('link', { name: 'Emails', exact: true }).click();
    expect(await page.locator('main').textContent()).toContain('sent as Lia Photo School');
  });

  it("the buyer's checkout shows the new brand, logo and contact number; then the currency is read-only", async () => {
    const product = await insertProduct(t, storeId, { name: 'Portrait course', price: '150.00', imageUrl: null });
    const { token } = await t.app
      .get(ApiKeysService)
      .create({ storeId, sellerId, name: 'ci', scopes: ['orders.write'] });
    const created = await t.http
      .post('/v1/orders')
      .set({ Authorization: `Bearer ${token}` })
      .send(orderBody(product.pid))
      .expect(201);
    await page.goto(created.body.checkout_url);
    expect(await page.getByTestId('brand').textContent()).toBe('Lia Photo School');
    expect(
      await page.getByTestId('store-logo').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
    ).toBeGreaterThan(0);
    expect(await page.getByTestId('store-contact').textContent()).toContain('+258 84 123 4567');
    await shot('checkout');

    await page.goto(`${web()}/settings/store`);
    expect(await page.locator('#currency').getAttribute('readonly')).not.toBeNull();
    expect(await page.getByTestId('currency-locked').textContent()).toContain('The currency can no longer change.');
    await shot('currency-locked');
  });
});
