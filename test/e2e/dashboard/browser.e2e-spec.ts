import { join } from 'node:path';
import { Browser, Page } from 'playwright-core';
import { ApiKeysService } from '../../../src/modules/identity/api-keys/api-keys.service';
import { insertProduct } from '../billing/fixtures';
import { expectNoPageErrors, launchBrowser, openPage, screenshot, signUpInDashboard } from '../../utils/browser';
import { createTestApp, TestApp } from '../../utils/test-app';
import { Receiver, startReceiver, waitUntil } from '../webhooks/helpers';

jest.setTimeout(240_000);

const ARTIFACTS = join(__dirname, '..', '..', 'artifacts');

/**
 * Every dashboard page and action of the seller's daily work (webhooks, orders, confirmations of
 * destructive actions) in headless Chromium at desktop and phone widths, with a screenshot of each
 * step under test/artifacts/ and no console error on any page.
 */
describe.each([1280, 390])('seller dashboard in a real browser at %i px', (width) => {
  let t: TestApp;
  let browser: Browser;
  let receiver: Receiver;
  let page: Page;
  let consoleErrors: string[];
  const web = () => `${t.baseUrl}/web`;
  const shot = (name: string) => screenshot(page, ARTIFACTS, `dashboard-${name}-${width}`, width);
  let storeId: number;
  let auth: { Authorization: string };

  beforeAll(async () => {
    t = await createTestApp({ listen: true });
    receiver = await startReceiver();
    browser = await launchBrowser();
    ({ page, consoleErrors } = await openPage(browser, width));

    const email = `daily-${width}-${Date.now()}@example.com`;
    let sellerId: number;
    ({ sellerId, storeId } = await signUpInDashboard(page, t, {
      name: 'Dora Seller',
      email,
      password: 'a long enough password',
      storeName: 'Dora Prints',
    }));
    const { token } = await t.app
      .get(ApiKeysService)
      .create({ storeId, sellerId, name: 'ci', scopes: ['orders.read', 'orders.write'] });
    auth = { Authorization: `Bearer ${token}` };
  });

  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await t?.close();
  });

  afterEach(() => expectNoPageErrors({ consoleErrors }));

  it('webhooks: register, send a test event, redeliver it, edit, and delete after confirming', async () => {
    await page.goto(`${web()}/webhooks`);
    await shot('webhooks-empty');
    await page.fill('#url', receiver.url);
    await page.fill('#name', 'Fulfilment');
    await page.check('input[name=events][value=order_refund]');
    await page.click('form[data-testid=webhook-form] button[type=submit]');
    await page.waitForURL(/\/web\/webhooks\/\d+\?created=1$/);
    expect(await page.getByTestId('notice').textContent()).toContain('Webhook created');
    const id = Number(/webhooks\/(\d+)/.exec(page.url())![1]);

    const before = receiver.requests.length;
    await page.getByTestId('send-test').click();
    await page.waitForURL(/\?tested=\d+$/);
    expect(await page.getByTestId('notice').textContent()).toBe('Test event delivered (HTTP 200).');
    const sent = JSON.parse(receiver.requests[before].body);
    expect(sent).toMatchObject({
      order_type: 'order_approved',
      order_number: expect.stringMatching(/^TEST-/),
      test: true,
      brand: 'Dora Prints',
    });
    await expect(page.locator('tbody tr[data-testid^=delivery-]').count()).resolves.toBe(1);
    await shot('webhook-tested');

    await page.locator('button[data-testid^=redeliver-]').first().click();
    await page.waitForURL(/\?redelivered=\d+$/);
    expect(await page.getByTestId('notice').textContent()).toContain('queued');
    await receiver.waitFor(before + 2);
    expect(JSON.parse(receiver.requests[before + 1].body).order_number).toBe(sent.order_number);

    await page.fill('#name', 'Fulfilment (new)');
    await page.selectOption('#status', 'active');
    await page.click('form[data-testid=webhook-form] button[type=submit]');
    await page.waitForURL(/\?saved=1$/);
    expect(await page.locator('h1').textContent()).toBe('Fulfilment (new)');

    await page.goto(`${web()}/webhooks`);
    expect(await page.getByTestId(`webhook-${id}`).textContent()).toContain('Fulfilment (new)');
    await shot('webhooks-list');

    // A second webhook to delete: the first keeps receiving the order events below.
    await page.fill('#url', `${receiver.url}/other`);
    await page.click('form[data-testid=webhook-form] button[type=submit]');
    await page.waitForURL(/\?created=1$/);
    const doomed = Number(/webhooks\/(\d+)/.exec(page.url())![1]);
    await page.getByTestId('delete-webhook').click();
    await page.waitForURL(`${web()}/webhooks/${doomed}/delete`);
    await shot('webhook-delete-confirm');
    await page.goto(`${web()}/webhooks/${doomed}`); // Cancel: nothing was deleted
    await page.getByTestId('delete-webhook').click();
    await page.getByTestId('confirm').click();
    await page.waitForURL(`${web()}/webhooks?deleted=1`);
    expect(await page.getByTestId('notice').textContent()).toBe('Webhook deleted.');
    expect(await page.locator(`[data-testid=webhook-${doomed}]`).count()).toBe(0);
  });

  it('orders: list with filters, detail with payment and events, refund after confirming', async () => {
    const product = await insertProduct(t, storeId, { name: 'Poster pack', price: '150.00' });
    const customer = { name: 'Rui Costa', email: `rui-${width}@example.com`, mobile_number: '+258841234567' };
    const paid = (
      await t.http.post('/v1/orders').set(auth).send({ amount: 150, product_pid: product.pid, customer }).expect(201)
    ).body;
    await t.http
      .post(`/pay/token/${paid.pay_token}/pay`)
      .set('Accept', 'application/json')
      .type('form')
      .send({ payment_method: 'mpesa', payment_number: '841234567' })
      .expect(200);
    await t.http
      .post('/v1/orders')
      .set(auth)
      .send({ amount: 150, product_pid: product.pid, customer: { ...customer, email: 'other@example.com' } })
      .expect(201);

    await page.goto(`${web()}/orders`);
    await expect(page.getByTestId('order-row').count()).resolves.toBe(2);
    await shot('orders');
    await page.selectOption('#status', 'approved');
    await page.fill('#email', customer.email);
    await page.click('form[data-testid=order-filters] button[type=submit]');
    await page.waitForURL(/status=approved/);
    await expect(page.getByTestId('order-row').count()).resolves.toBe(1);
    expect(await page.getByTestId('order-row').getAttribute('data-order-number')).toBe(paid.order_number);
    await page.selectOption('#status', 'cancelled');
    await page.click('form[data-testid=order-filters] button[type=submit]');
    await page.waitForURL(/status=cancelled/);
    await page.getByTestId('no-orders').waitFor();
    await page.goto(`${web()}/orders?status=bogus`);
    expect(await page.getByTestId('filter-error').textContent()).toContain('status must be one of');

    // The order_approved delivery to the webhook of the first test, sent by the worker.
    await waitUntil(async () => {
      const rows = await t.dataSource.query(
        `SELECT state FROM webhook_deliveries WHERE store_id = $1 AND event_kind = 'order_approved' AND order_id IS NOT NULL`,
        [storeId],
      );
      return rows.length > 0 && rows[0].state === 'success';
    });
    await page.goto(`${web()}/orders/${paid.order_number}`);
    expect(await page.getByTestId('order-status').textContent()).toBe('approved');
    expect(await page.locator('time').first().getAttribute('title')).toMatch(
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/,
    );
    expect(await page.getByTestId('event-row').first().textContent()).toContain('order_approved');
    expect(await page.getByTestId('event-row').first().textContent()).toContain('HTTP 200');
    expect(await page.locator('body').textContent()).toContain('841234567');
    await shot('order-detail');

    await page.getByTestId('refund').click();
    await page.waitForURL(`${web()}/orders/${paid.order_number}/refund`);
    expect(await page.getByTestId('confirm-form').textContent()).toContain('150.00 MZN');
    await shot('order-refund-confirm');
    await page.getByTestId('confirm').click();
    await page.waitForURL(/\?refunded=1$/);
    expect(await page.getByTestId('order-status').textContent()).toBe('refunded');
    expect(await page.getByTestId('refund').count()).toBe(0);
    await shot('order-refunded');
  });

  it('API keys and OAuth apps: revoke, deactivate and rotate ask first; labels kept on a phone', async () => {
    await page.goto(`${web()}/settings/api`);
    await page.fill('#name', 'Zapier');
    await page.check('input[name=scopes][value="orders.read"]');
    await page.check('input[name=scopes][value="webhooks.write"]');
    await page.click('form[action$="/settings/api/keys"] button[type=submit]');
    await page.getByTestId('api-key-token').waitFor();
    const row = page.locator('[data-testid=api-key-row]', { hasText: 'Zapier' });
    // A scope never breaks inside itself.
    expect(
      await row
        .locator('code.scope')
        .first()
        .evaluate((el: any) => el.ownerDocument.defaultView.getComputedStyle(el).whiteSpace),
    ).toBe('nowrap');
    if (width < 560) {
      expect(
        await row
          .locator('td[data-label=Scopes]')
          .evaluate((el: any) => el.ownerDocument.defaultView.getComputedStyle(el, '::before').content),
      ).toBe('"Scopes"');
    }
    await shot('api-keys');
    await row.getByTestId('revoke-key').click();
    await page.waitForURL(/\/keys\/\d+\/revoke$/);
    await shot('api-key-revoke-confirm');
    await page.getByTestId('confirm').click();
    await page.waitForURL(`${web()}/settings/api`);
    expect(await page.locator('[data-testid=api-key-row]', { hasText: 'Zapier' }).textContent()).toContain('revoked');

    await page.goto(`${web()}/apps`);
    await page.fill('#name', 'Partner');
    await page.fill('#redirect_uris', 'https://partner.example.com/cb');
    await page.click('form[action$="/apps"] button[type=submit]');
    const first = (await page.getByTestId('client-secret').textContent())!.trim();
    await page.getByTestId('rotate-secret').click();
    await page.waitForURL(/\/apps\/\d+\/rotate-secret$/);
    await shot('app-rotate-confirm');
    await page.getByTestId('confirm').click();
    expect((await page.getByTestId('client-secret').textContent())!.trim()).not.toBe(first);
    await page.goto(`${web()}/apps`);
    await page.getByTestId('deactivate-app').click();
    await page.waitForURL(/\/apps\/\d+\/deactivate$/);
    await page.getByTestId('confirm').click();
    await page.waitForURL(`${web()}/apps`);
    expect(await page.getByTestId('app-row').textContent()).toContain('inactive');
    await shot('apps');
  });
});
