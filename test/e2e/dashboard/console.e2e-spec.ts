import { join } from 'node:path';
import { Browser, Page } from 'playwright-core';
import { ApiKeysService } from '../../../src/modules/identity/api-keys/api-keys.service';
import { ScopeRegistry } from '../../../src/modules/identity/scopes/scope-registry';
import { SellersService } from '../../../src/modules/identity/sellers/sellers.service';
import { expectNoPageErrors, launchBrowser, openPage, screenshot, signUpInDashboard } from '../../utils/browser';
import { createTestApp, TestApp } from '../../utils/test-app';
import { createSeller } from '../../utils/auth';
import { insertFile, insertPlan, insertProduct } from '../billing/fixtures';

jest.setTimeout(300_000);

const ARTIFACTS = join(__dirname, '..', '..', 'artifacts');

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
  let consoleErrors: string[];
  const web = () => `${t.baseUrl}/web`;
  const shot = (name: string) => screenshot(page, ARTIFACTS, `console-${name}-${width}`, width);
  let storeId: number;
  let sellerId: number;
  let auth: { Authorization: string };

  beforeAll(async () => {
    t = await createTestApp({ listen: true });
    browser = await launchBrowser();
    // A refused form is answered 422 (a foreign id 404) on purpose; Chromium logs the status.
    ({ page, consoleErrors, cspViolations } = await openPage(browser, width, { expectedStatuses: [404, 409, 422] }));

    const email = `console-${width}-${Date.now()}@example.com`;
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

  it('home: a getting-started checklist until the first steps are done, then figures and a chart that match the reports API', async () => {
    await shot('home-new');
    const steps = page.getByTestId('getting-started');
    expect(await steps.isVisible()).toBe(true);
    expect(await page.locator('[data-testid=getting-started] li.done').count()).toBe(0);

    const product = await insertProduct(t, storeId, { name: 'Photo course', price: '150.00' });
    await insertFile(t, storeId, product.id, { name: 'course.pdf', externalUrl: 'https://example.com/course.pdf' });
    const { token } = await t.app
      .get(ApiKeysService)
      .create({ storeId, sellerId, name: 'ci', scopes: t.app.get(ScopeRegistry).all() });
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

  it("products: create with field messages, publish naming what is missing, upload and delete files, plans, and another store's ids are 404", async () => {
    const count = async () =>
      (await t.dataSource.query(`SELECT count(*)::int AS n FROM products WHERE store_id = $1`, [storeId]))[0].n;
    const before = await count();
    await page.goto(`${web()}/products`);
    await page.getByTestId('new-product').click();
    await page.waitForURL(`${web()}/products/new`);
    await page.fill('#price', 'abc');
    await page.click('form[data-testid=product-form] button[type=submit]');
    expect(await page.getByTestId('error-name').textContent()).toBe('name is required.');
    // The API's message for a value of the wrong type, alone: no range rules said of a non-number.
    expect(await page.getByTestId('error-price').allTextContents()).toEqual(['price must be a number.']);
    expect(await count()).toBe(before);
    await shot('product-new-errors');

    await page.fill('#name', 'Lightroom presets');
    await page.fill('#price', '250.5');
    await page.click('form[data-testid=product-form] button[type=submit]');
    await page.waitForURL(/\/products\/prod_\w+\?created=1$/);
    const pid = (await page.getByTestId('product-pid').textContent())!;
    expect(await page.locator('#price').inputValue()).toBe('250.50');

    // Publishing names each missing requirement beside its field, and changes nothing.
    await page.getByTestId('publish').click();
    expect(await page.getByTestId('publish-error').textContent()).toContain('Product is missing required data.');
    expect(await page.getByTestId('missing-image_url').textContent()).toBe('The product needs an image (image_url).');
    expect(await page.getByTestId('missing-sale_page_url').textContent()).toContain('sale page');
    expect(await page.getByTestId('missing-files').textContent()).toBe('The product needs at least one file.');
    expect(await page.getByTestId('product-status').textContent()).toBe('draft');
    await shot('product-missing');

    await page.fill('#description', 'Forty presets for warm portraits.');
    await page.fill('#image_url', 'not a url');
    await page.click('form[data-testid=product-form] button[type=submit]');
    expect(await page.getByTestId('error-image_url').textContent()).toBe('image_url must be an http(s) URL.');
    const unchanged = await t.http.get(`/v1/products/${pid}`).set(auth).expect(200);
    expect(unchanged.body.product.description).toBeNull();
    await page.fill('#image_url', 'https://example.com/presets.png');
    await page.fill('#sale_page_url', 'https://example.com/presets');
    await page.fill('#category', 'Photography');
    await page.fill('#subcategory', 'Presets');
    await page.fill('#contact_number', '+258841234567');
    await page.click('form[data-testid=product-form] button[type=submit]');
    await page.waitForURL(/\?saved=1$/);
    const saved = (await t.http.get(`/v1/products/${pid}`).set(auth).expect(200)).body.product;
    expect(saved).toMatchObject({
      price: 250.5,
      category: 'Photography',
      description: 'Forty presets for warm portraits.',
    });

    // Upload without a file: the field's message. Then two files; delete one after confirming.
    await page.click('form[data-testid=upload-form] button[type=submit]');
    expect(await page.getByTestId('error-file').textContent()).toBe('Choose a file to upload.');
    for (const name of ['presets.zip', 'readme.txt']) {
      await page.setInputFiles('#file', {
        name,
        mimeType: 'application/octet-stream',
        buffer: Buffer.from(`bytes of ${name}`),
      });
      await page.click('form[data-testid=upload-form] button[type=submit]');
      await page.waitForURL(/\?uploaded=1/);
    }
    expect(await page.getByTestId('file-row').count()).toBe(2);
    const files = (await t.http.get(`/v1/products/${pid}/files`).set(auth).expect(200)).body.files;
    expect(files.map((f: { name: string }) => f.name)).toEqual(['presets.zip', 'readme.txt']);
    await page.locator('[data-testid=file-row]', { hasText: 'readme.txt' }).getByTestId('delete-file').click();
    await page.waitForURL(/\/files\/\d+\/delete$/);
    await shot('file-delete-confirm');
    await page.getByTestId('confirm').click();
    await page.waitForURL(/\?file_deleted=1/);
    expect(await page.getByTestId('file-row').count()).toBe(1);
    await shot('product-edit');

    await page.getByTestId('publish').click();
    await page.waitForURL(/\?published=1$/);
    expect(await page.getByTestId('product-status').textContent()).toBe('pending');

    // A recurring product's plans: the contract's messages, then a plan, then its deletion.
    await page.goto(`${web()}/products/new`);
    await page.fill('#name', 'Presets club');
    await page.selectOption('#type', 'recurring');
    await page.click('form[data-testid=product-form] button[type=submit]');
    await page.waitForURL(/\?created=1$/);
    const clubPid = (await page.getByTestId('product-pid').textContent())!;
    await page.getByTestId('plans-link').click();
    await page.fill('#name', 'Monthly');
    await page.fill('#price', '0');
    await page.click('form[data-testid=plan-form] button[type=submit]');
    expect(await page.getByTestId('error-price').textContent()).toBe('price must be at least 0.01.');
    expect(await page.getByTestId('no-plans').count()).toBe(1);
    await page.fill('#price', '99.9');
    await page.click('form[data-testid=plan-form] button[type=submit]');
    await page.waitForURL(/\/plans\?created=1$/);
    expect(await page.getByTestId('plan-row').textContent()).toContain('99.90 MZN');
    await shot('plans');
    await page.getByTestId('delete-plan').click();
    await page.getByTestId('confirm').click();
    await page.waitForURL(/\/plans\?deleted=1$/);
    expect(await page.getByTestId('plan-row').count()).toBe(0);

    await page.goto(`${web()}/products`);
    expect(await page.getByTestId('product-row').count()).toBe(before + 2);
    await shot('products');
    await page.goto(`${web()}/products?page=9`);
    expect(await page.getByTestId('past-last-page').textContent()).toContain('There are no products on page 9');

    // Another store's product: every page and action is a 404.
    const other = await insertProduct(t, (await createSeller(t)).storeId, { name: 'Not yours' });
    for (const path of [
      `/products/${other.pid}`,
      `/products/${other.pid}/plans`,
      `/products/${clubPid}/plans/plan_nope/delete`,
    ]) {
      const res = await page.goto(`${web()}${path}`);
      expect(res!.status()).toBe(404);
    }
  });

  it('discounts: field messages, a duplicate code beside the code, uses and what is left, edit, delete after confirming', async () => {
    const count = async () =>
      (await t.dataSource.query(`SELECT count(*)::int AS n FROM discounts WHERE store_id = $1`, [storeId]))[0].n;
    await page.goto(`${web()}/discounts`);
    await page.getByTestId('new-discount').click();
    await page.fill('#code', 'WELCOME10');
    await page.fill('#value', 'ten');
    await page.fill('#uses_limit', '0');
    await page.click('form[data-testid=discount-form] button[type=submit]');
    expect(await page.getByTestId('error-value').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('error-uses_limit').count()).toBeGreaterThan(0);
    expect(await count()).toBe(0);
    await shot('discount-errors');

    await page.fill('#value', '10');
    await page.fill('#uses_limit', '5');
    await page.click('form[data-testid=discount-form] button[type=submit]');
    await page.waitForURL(/\/discounts\/\d+\?created=1$/);
    const id = Number(/discounts\/(\d+)/.exec(page.url())![1]);

    await page.goto(`${web()}/discounts/new`);
    await page.fill('#code', 'welcome10');
    await page.fill('#value', '5');
    await page.click('form[data-testid=discount-form] button[type=submit]');
    expect(await page.getByTestId('error-code').textContent()).toBe('A discount with this code already exists.');
    expect(await count()).toBe(1);

    // A sale with the coupon: one use taken, four left.
    const product = (await t.http.get('/v1/products').set(auth).expect(200)).body.products.find(
      (p: { type: string }) => p.type === 'one_time',
    );
    const customer = { name: 'Eva', email: `eva-${width}@example.com`, mobile_number: '+258841234567' };
    await t.http
      .post('/v1/orders')
      .set(auth)
      .send({ amount: 300, product_pid: product.pid, customer, coupon_code: 'WELCOME10' })
      .expect(201);
    await page.goto(`${web()}/discounts`);
    const row = page.locator('[data-testid=discount-row][data-code=WELCOME10]');
    expect(await row.getByTestId('used-count').textContent()).toBe('1');
    expect(await row.getByTestId('available-uses').textContent()).toBe('4');
    await shot('discounts');

    await row.locator('a').first().click();
    await page.selectOption('#status', 'inactive');
    // The expiry is a date: the coupon works through that day (UTC); a past day is refused.
    await page.fill('#expires_at', '2020-01-01');
    await page.click('form[data-testid=discount-form] button[type=submit]');
    expect(await page.getByTestId('error-expires_at').textContent()).toBe('expires_at must be in the future.');
    expect((await t.http.get(`/v1/discounts/${id}`).set(auth).expect(200)).body.discount.status).toBe('active');
    await page.fill('#expires_at', '2030-01-01');
    await page.click('form[data-testid=discount-form] button[type=submit]');
    await page.waitForURL(/\?saved=1$/);
    const saved = (await t.http.get(`/v1/discounts/${id}`).set(auth).expect(200)).body.discount;
    expect(saved).toMatchObject({ status: 'inactive', expires_at: '2030-01-01T23:59:59.000000Z', uses_limit: 5 });
    expect(await page.locator('#expires_at').inputValue()).toBe('2030-01-01');
    await shot('discount-edit');

    await page.getByTestId('delete-discount').click();
    await page.waitForURL(`${web()}/discounts/${id}/delete`);
    await page.getByTestId('confirm').click();
    await page.waitForURL(`${web()}/discounts?deleted=1`);
    expect(await count()).toBe(0);

    const foreign = await createSeller(t);
    const theirs = (
      await t.http
        .post('/v1/discounts')
        .set(foreign.auth)
        .send({ code: 'THEIRS', type: 'percent', value: 5 })
        .expect(201)
    ).body.discount;
    for (const path of [`/discounts/${theirs.id}`, `/discounts/THEIRS`, `/discounts/${theirs.id}/delete`]) {
      expect((await page.goto(`${web()}${path}`))!.status()).toBe(404);
    }
  });

  it('customers and subscriptions: search, totals, filter, cancel at period end then now after confirming', async () => {
    const club = await insertProduct(t, storeId, { name: 'Film club', type: 'recurring', price: null });
    const plan = await insertPlan(t, storeId, club.id, { name: 'Monthly', price: '120.00', interval: 'month' });
    const member = { name: 'Marta Sitoe', email: `marta-${width}@example.com`, mobile_number: '+258841234567' };
    const created = (
      await t.http
        .post('/v1/orders')
        .set(auth)
        .send({ amount: 120, product_pid: club.pid, plan_id: plan.planId, customer: member })
        .expect(201)
    ).body;
    await t.http
      .post(`/pay/token/${created.pay_token}/pay`)
      .set('Accept', 'application/json')
      .send({ payment_method: 'mpesa', payment_number: '841234567' })
      .expect(200);

    await page.goto(`${web()}/customers`);
    await page.fill('#q', 'RUI');
    await page.click('form[data-testid=customer-search] button[type=submit]');
    await page.waitForURL(/q=RUI/);
    expect(await page.getByTestId('customer-row').count()).toBe(1);
    await page.getByTestId('customer-row').locator('a').click();
    // 150.00 approved; the 99.50 order was refunded and does not count.
    expect(await page.getByTestId('total-paid').textContent()).toBe('150.00 MZN');
    expect(await page.getByTestId('customer-order').count()).toBe(2);
    await shot('customer');
    await page.goto(`${web()}/customers?q=nobody-at-all`);
    expect(await page.getByTestId('no-customers').textContent()).toContain('No customer matches');
    await page.goto(`${web()}/customers?page=7`);
    expect(await page.getByTestId('past-last-page').textContent()).toContain('nothing on page 7');

    await page.goto(`${web()}/subscriptions?status=bogus`);
    expect(await page.getByTestId('filter-error').textContent()).toBe(
      'status must be one of: active, past_due, cancelled, expired.',
    );
    await page.goto(`${web()}/subscriptions`);
    await page.selectOption('#status', 'active');
    await page.click('form[data-testid=subscription-filters] button[type=submit]');
    await page.waitForURL(/status=active/);
    expect(await page.getByTestId('subscription-row').count()).toBe(1);
    await shot('subscriptions');
    await page.getByTestId('subscription-row').locator('a').click();
    const id = Number(/subscriptions\/(\d+)/.exec(page.url())![1]);

    await page.getByTestId('cancel-period-end').click();
    await page.waitForURL(/cancel\?when=period_end$/);
    await page.getByTestId('confirm').click();
    await page.waitForURL(/\?cancelled=1$/);
    expect(await page.getByTestId('subscription-status').textContent()).toBe('active');
    expect(await page.getByTestId('ending').count()).toBe(1);
    const ending = (await t.http.get(`/v1/subscriptions/${id}`).set(auth).expect(200)).body.subscription;
    expect(ending).toMatchObject({ status: 'active', cancel_at_period_end: true });

    await page.getByTestId('cancel-now').click();
    await shot('subscription-cancel-confirm');
    await page.getByTestId('confirm').click();
    await page.waitForURL(/\?cancelled=1$/);
    expect(await page.getByTestId('subscription-status').textContent()).toBe('cancelled');
    expect(await page.getByTestId('cancel-now').count()).toBe(0);
    await shot('subscription-cancelled');

    const foreign = await createSeller(t);
    const theirs = await insertProduct(t, foreign.storeId, { name: 'Theirs', price: '100.00' });
    const order = (
      await t.http
        .post('/v1/orders')
        .set(foreign.auth)
        .send({ amount: 100, product_pid: theirs.pid, customer: { ...member, email: 'x@example.com' } })
        .expect(201)
    ).body;
    const theirCustomer = (await t.http.get(`/v1/orders/${order.order_number}`).set(foreign.auth).expect(200)).body
      .order.customer.id;
    for (const path of [`/customers/${theirCustomer}`, `/subscriptions/999999`, `/subscriptions/${id}x`]) {
      expect((await page.goto(`${web()}${path}`))!.status()).toBe(404);
    }
  });

  it('password: the current one is checked, the new one needs 8 characters, then it is the one that logs in', async () => {
    const sellers = t.app.get(SellersService);
    const email = (await sellers.findById(sellerId))!.email;
    await page.goto(`${web()}/settings/password`);
    await page.fill('#current_password', 'not my password');
    await page.fill('#new_password', 'short');
    await page.click('form[data-testid=password-form] button[type=submit]');
    expect(await page.getByTestId('error-current_password').textContent()).toBe('The current password is wrong.');
    expect(await page.getByTestId('error-new_password').textContent()).toBe('Use at least 8 characters.');
    expect(await sellers.verifyCredentials(email, 'a long enough password')).not.toBeNull();
    await shot('password-errors');
    await page.fill('#current_password', 'a long enough password');
    await page.fill('#new_password', 'an even longer password');
    await page.click('form[data-testid=password-form] button[type=submit]');
    await page.waitForURL(/\?saved=1$/);
    expect(await sellers.verifyCredentials(email, 'a long enough password')).toBeNull();
    expect(await sellers.verifyCredentials(email, 'an even longer password')).not.toBeNull();
  });
});
