import { join } from 'node:path';
import { Browser, Page } from 'playwright-core';
import { launchBrowser, logInToDashboard, screenshot } from '../../utils/browser';
import { createSeller, TestSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';
import { createOrder, insertPlan, insertProduct, orderBody, payJson } from '../billing/fixtures';

jest.setTimeout(240_000);

const ARTIFACTS = join(__dirname, '..', '..', 'artifacts');

/**
 * The order pages tell the truth: each payment attempt with its amount and decline reason, a
 * subscription cancelled at period end shown as such, a page past the last one with a link back,
 * and an HTML 404 page for any unknown path under the dashboard; no request of any page is a 404.
 */
describe.each([390, 1280])('dashboard order pages at %i px', (width) => {
  let t: TestApp;
  let seller: TestSeller;
  let browser: Browser;
  let page: Page;
  const notFound: string[] = [];
  const web = () => `${t.baseUrl}/web`;
  const shot = (name: string) => screenshot(page, ARTIFACTS, `orders-${name}-${width}`, width);

  beforeAll(async () => {
    t = await createTestApp({ listen: true });
    seller = await createSeller(t, { brand: 'Loja Aurora' });
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width, height: 900 } });
    page.on('response', (res) => {
      if (res.status() === 404 && !res.url().includes('/nowhere')) notFound.push(res.url());
    });
    await logInToDashboard(page, t.baseUrl, seller.email, seller.password);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });
  afterEach(() => expect(notFound.splice(0)).toEqual([]));

  it('shows each payment with its amount and, when declined, the reason', async () => {
    const product = await insertProduct(t, seller.storeId, { name: 'Curso', price: '150.00' });
    const created = await createOrder(t, seller, orderBody(product.pid));
    await payJson(t, created.pay_token, { payment_method: 'mpesa', payment_number: '841110002' }).expect(200);
    await t.http.post(`/pay/token/${created.pay_token}/retry`).set('Accept', 'application/json').send().expect(200);
    await payJson(t, created.pay_token, { payment_method: 'emola', payment_number: '861234567' }).expect(200);
    await page.goto(`${web()}/orders/${created.order_number}`);
    const rows = page.getByTestId('payment-row');
    expect(await rows.count()).toBe(2);
    // Newest first: the approved e-Mola payment, then the declined M-Pesa one with its reason.
    expect(await rows.nth(0).textContent()).toMatch(/e-Mola[\s\S]*150\.00 MZN[\s\S]*succeeded/);
    expect(await rows.nth(1).textContent()).toMatch(/M-Pesa[\s\S]*150\.00 MZN[\s\S]*failed/);
    expect((await rows.nth(1).getByTestId('decline-reason').textContent())!.length).toBeGreaterThan(3);
    await shot('payments');
  });

  it('shows a subscription the buyer cancelled at period end as ending, not plainly active', async () => {
    const club = await insertProduct(t, seller.storeId, { name: 'Clube', type: 'recurring', price: null });
    const plan = await insertPlan(t, seller.storeId, club.id, { name: 'Mensal' });
    const created = await createOrder(t, seller, orderBody(club.pid, { amount: 300, plan_id: plan.planId }));
    await payJson(t, created.pay_token, { payment_method: 'mpesa', payment_number: '841234567' }).expect(200);
    const order = (await t.http.get(`/v1/orders/${created.order_number}`).set(seller.auth).expect(200)).body.order;
    await t.http
      .post(`/v1/subscriptions/${order.subscription.id}/cancel`)
      .set(seller.auth)
      .send({ at_period_end: true })
      .expect(200);
    await page.goto(`${web()}/orders/${created.order_number}`);
    expect(await page.getByTestId('subscription-state').textContent()).toMatch(
      /^active, cancelled by the customer: ends on /,
    );
    await shot('subscription-ending');
  });

  it('a page past the last one says so and links back, never "No orders yet."', async () => {
    await page.goto(`${web()}/orders?page=999`);
    expect(await page.getByTestId('no-orders').count()).toBe(0);
    expect(await page.getByTestId('past-last-page').textContent()).toMatch(
      /^Page 999 is past the last page: there are \d+ orders on 1 page\.$/,
    );
    await shot('past-last-page');
    await Promise.all([page.waitForURL(/page=1$/), page.getByTestId('back-to-last-page').click()]);
    expect(await page.getByTestId('order-row').count()).toBeGreaterThan(0);
  });

  it('an unknown path under the dashboard is an HTML 404 page with a way back', async () => {
    const res = await page.goto(`${web()}/nowhere/at-all`);
    expect(res!.status()).toBe(404);
    expect(res!.headers()['content-type']).toMatch(/text\/html/);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Page not found');
    await shot('not-found');
    await Promise.all([page.waitForURL(/\/web\/?$/), page.getByTestId('back-link').click()]);
    // Without a session too: still a page, not JSON.
    const anonymous = await t.http.get('/web/nowhere').expect(404);
    expect(anonymous.headers['content-type']).toMatch(/text\/html/);
    expect(anonymous.text).toContain('Page not found');
  });
});
