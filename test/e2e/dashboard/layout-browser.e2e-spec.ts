import { join } from 'node:path';
import { Browser, Page } from 'playwright-core';
import { ApiKeysService } from '../../../src/modules/identity/api-keys/api-keys.service';
import { OAuthAppsService } from '../../../src/modules/identity/oauth/oauth-apps.service';
import { createSeller, TestSeller } from '../../utils/auth';
import { expectNoPageErrors, launchBrowser, logInToDashboard, openPage, screenshot } from '../../utils/browser';
import { createTestApp, TestApp } from '../../utils/test-app';
import { createOrder, insertPlan, insertProduct, orderBody, payJson } from '../billing/fixtures';

jest.setTimeout(300_000);

const ARTIFACTS = join(__dirname, '..', '..', 'artifacts');

/** A word as long as a careless paste makes it: 240 letters, no space to break at. */
const LONG = 'Supercalifragilisticexpialidocious'.repeat(8).slice(0, 240);

/**
 * The dashboard as a seller sees it in headless Chromium at desktop and phone widths: a long word
 * (a product, store, customer, app or webhook name without a space) wraps on every page and on
 * the consent screen instead of widening it; every field's message sits on a line of its own by
 * its field, never beside the submit button; a failed webhook test is shown in the error style.
 */
describe.each([1280, 390])('dashboard layout in a real browser at %i px', (width) => {
  let t: TestApp;
  let seller: TestSeller;
  let browser: Browser;
  let page: Page;
  let consoleErrors: string[];
  let cspViolations: string[];
  const web = () => `${t.baseUrl}/web`;
  const shot = (name: string) => screenshot(page, ARTIFACTS, `layout-${name}-${width}`, width);
  let productPid: string;
  let orderNumber: string;
  let subscriptionId: number;
  let customerId: number;
  let webhookId: number;
  let discountId: number;
  let clientId: string;

  beforeAll(async () => {
    t = await createTestApp({ listen: true });
    seller = await createSeller(t, { brand: LONG });
    await t.dataSource.query(`UPDATE stores SET name = $2, contact_number = $3 WHERE id = $1 OR live_store_id = $1`, [
      seller.storeId,
      LONG,
      '+258841234567',
    ]);
    await t.dataSource.query(`UPDATE sellers SET operator = true WHERE id = $1`, [seller.sellerId]);

    const product = await insertProduct(t, seller.storeId, { name: LONG, price: '150.00' });
    productPid = product.pid;
    await t.dataSource.query(
      `UPDATE products SET description = $2, category = $3, status_2 = 'pending' WHERE id = $1`,
      [product.id, LONG, LONG.slice(0, 100)],
    );
    const buyer = { name: LONG, email: `${'b'.repeat(60)}@example.com`, mobile_number: '+258841234567' };
    const order = await createOrder(t, seller, orderBody(product.pid, { customer: buyer }));
    await payJson(t, order.pay_token, { payment_method: 'mpesa', payment_number: '841234567' }).expect(200);
    orderNumber = order.order_number;
    const club = await insertProduct(t, seller.storeId, { name: `${LONG}Club`, type: 'recurring', price: null });
    const plan = await insertPlan(t, seller.storeId, club.id, { name: LONG });
    const subscribed = await createOrder(
      t,
      seller,
      orderBody(club.pid, { amount: 300, plan_id: plan.planId, customer: buyer }),
    );
    await payJson(t, subscribed.pay_token, { payment_method: 'mpesa', payment_number: '841234567' }).expect(200);
    const detail = (await t.http.get(`/v1/orders/${subscribed.order_number}`).set(seller.auth).expect(200)).body.order;
    subscriptionId = detail.subscription.id;
    customerId = detail.customer.id;

    webhookId = (
      await t.http
        .post('/v1/webhooks')
        .set(seller.auth)
        .send({ url: `http://127.0.0.1:1/${'h'.repeat(200)}`, events: ['order_approved'], name: LONG })
        .expect(201)
    ).body.webhook.id;
    discountId = (
      await t.http
        .post('/v1/discounts')
        .set(seller.auth)
        .send({ code: `C${'X'.repeat(63)}`, type: 'percent', value: 10, product_ids: [product.id] })
        .expect(201)
    ).body.discount.id;
    await t.app
      .get(ApiKeysService)
      .create({ storeId: seller.storeId, sellerId: seller.sellerId, name: LONG, scopes: ['user.read'] });
    ({ clientId } = (
      await t.app.get(OAuthAppsService).register({
        storeId: seller.storeId,
        sellerId: seller.sellerId,
        name: LONG,
        redirectUris: [`https://partner.example.com/${'cb'.repeat(100)}`],
      })
    ).app);

    browser = await launchBrowser();
    ({ page, consoleErrors, cspViolations } = await openPage(browser, width, { expectedStatuses: [404, 422] }));
    await logInToDashboard(page, t.baseUrl, seller.email, seller.password);
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  afterEach(() => expectNoPageErrors({ consoleErrors, cspViolations }));

  it('a 240-letter word wraps on every page and on the consent screen: nothing is wider than the screen', async () => {
    const pages: Array<[string, string]> = [
      ['home', '/'],
      ['products', '/products'],
      ['product', `/products/${productPid}`],
      ['orders', '/orders'],
      ['order', `/orders/${orderNumber}`],
      ['customers', '/customers'],
      ['customer', `/customers/${customerId}`],
      ['subscriptions', '/subscriptions'],
      ['subscription', `/subscriptions/${subscriptionId}`],
      ['discounts', '/discounts'],
      ['discount', `/discounts/${discountId}`],
      ['discount-new', '/discounts/new'],
      ['webhooks', '/webhooks'],
      ['webhook', `/webhooks/${webhookId}`],
      ['api-keys', '/settings/api'],
      ['apps', '/apps'],
      ['store', '/settings/store'],
      ['emails', '/settings/emails'],
      ['review', '/review'],
      ['review-reject', `/review/${productPid}/reject`],
      ['refund-confirm', `/orders/${orderNumber}/refund`],
      [
        'consent',
        `/oauth/authorize?${new URLSearchParams({
          client_id: clientId,
          redirect_uri: `https://partner.example.com/${'cb'.repeat(100)}`,
          scope: 'user.read orders.read',
          state: 'xyz',
        })}`,
      ],
    ];
    for (const [name, path] of pages) {
      const res = await page.goto(`${web()}${path}`);
      expect([name, res!.status()]).toEqual([name, 200]);
      const scrollWidth = await page.evaluate('document.documentElement.scrollWidth');
      expect([name, scrollWidth]).toEqual([name, width]);
      await shot(name);
    }
  });

  it("each field's message is on its own line by its field, never beside the submit button", async () => {
    const below = async (message: string, button: string) => {
      const error = (await page.locator(message).first().boundingBox())!;
      const submit = (await page.locator(button).boundingBox())!;
      expect(error.y + error.height).toBeLessThanOrEqual(submit.y);
    };
    await page.goto(`${web()}/products/${productPid}`);
    await page.fill('#contact_number', 'call me');
    await page.click('form[data-testid=product-form] button[type=submit]');
    await page.getByTestId('error-contact_number').waitFor();
    await below('[data-testid=error-contact_number]', 'form[data-testid=product-form] button[type=submit]');
    await shot('product-error');

    await page.goto(`${web()}/discounts/new`);
    await page.fill('#code', 'LATE');
    await page.fill('#value', '5');
    await page.fill('#expires_at', '2020-01-01');
    await page.click('form[data-testid=discount-form] button[type=submit]');
    expect(await page.getByTestId('error-expires_at').textContent()).toBe('expires_at must be in the future.');
    await below('[data-testid=error-expires_at]', 'form[data-testid=discount-form] button[type=submit]');
    // The date alone means the end of that day in UTC: the page says so beside the field.
    expect(await page.locator('#expires_at-help').textContent()).toContain('until the end of this day in UTC');
    await shot('discount-error');
  });

  it('a failed test event is shown in the error style, not the notice style', async () => {
    await page.goto(`${web()}/webhooks/${webhookId}`);
    await page.getByTestId('send-test').click();
    await page.waitForURL(/\?tested=\d+$/);
    const failed = page.getByTestId('test-failed');
    expect(await failed.textContent()).toMatch(/^Test event failed \(no response\)/);
    // The error box's red, not the notice's blue.
    expect(await failed.evaluate((el: any) => el.ownerDocument.defaultView.getComputedStyle(el).backgroundColor)).toBe(
      'rgb(253, 236, 234)',
    );
    expect(await page.getByTestId('notice').count()).toBe(0);
    await shot('webhook-test-failed');
  });
});
