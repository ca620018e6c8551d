import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../../utils/browser';
import { watchCsp } from '../../utils/csp';
import { createSeller, TestSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';
import { createOrder, insertPlan, insertProduct, orderBody } from '../billing/fixtures';
import { sweepFor } from '../subscriptions/helpers';

jest.setTimeout(180_000);

/** Screenshots of each step under test/artifacts/, to look at as a buyer would. */
const SHOTS = join(__dirname, '..', '..', 'artifacts');

const WIDTHS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
];

/** (billing README, `checkout/`) in a real browser: try again, the thank-you, a renewal checkout, a cancellation. */
describe.each(WIDTHS)('the buyer in a real browser at $width px', ({ name, width, height }) => {
  let t: TestApp;
  let seller: TestSeller;
  let browser: Browser;
  let product: { id: number; pid: string; name: string };

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    t = await createTestApp({ listen: true });
    seller = await createSeller(t, { brand: 'Loja Aurora' });
    product = await insertProduct(t, seller.storeId, { name: 'Curso de Fotografia', price: '150.00', imageUrl: null });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** A page that fails the test on any answer >= 400 (the favicon included) and any CSP violation. */
  async function open(): Promise<{ page: Page; failures: string[]; csp: string[] }> {
    const page = await browser.newPage({ viewport: { width, height } });
    const failures: string[] = [];
    page.on('response', (res) => {
      if (res.status() >= 400 && res.status() !== 409) failures.push(`${res.status()} ${res.url()}`);
    });
    return { page, failures, csp: await watchCsp(page) };
  }

  const shot = (page: Page, step: string) =>
    page.screenshot({ path: join(SHOTS, `buyer-${step}-${name}.png`), fullPage: true });
  const fitsScreen = async (page: Page) =>
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);

  it('declined, tries again on the same link, pays, and is thanked with the product and the masked receipt address', async () => {
    const created = await createOrder(
      t,
      seller,
      orderBody(product.pid, {
        customer: { name: 'Ana Silva', email: 'ana.silva@example.com', mobile_number: '+258841234567' },
      }),
    );
    const { page, failures, csp } = await open();
    await page.goto(created.checkout_url);
    await page.getByLabel('Mobile number').fill('841110002');
    await Promise.all([page.waitForURL(created.checkout_url), page.getByRole('button', { name: 'Pay now' }).click()]);
    expect(await page.getByTestId('decline-reason').textContent()).toContain('Payment declined');
    await fitsScreen(page);
    await shot(page, '1-declined');

    await Promise.all([page.waitForURL(created.checkout_url), page.getByRole('button', { name: 'Try again' }).click()]);
    await shot(page, '2-try-again');
    await page.getByLabel('Mobile number').fill('841234567');
    await Promise.all([page.waitForURL(/\/order\/.*thanks=1$/), page.getByRole('button', { name: 'Pay now' }).click()]);
    expect(await page.getByTestId('thank-you-product').textContent()).toBe('Curso de Fotografia');
    expect(await page.getByTestId('receipt-to').textContent()).toBe('A receipt was sent to a***@example.com.');
    expect(await page.getByTestId('order-amount').textContent()).toMatch(/^Paid\s*150\.00 MZN$/);
    await fitsScreen(page);
    await shot(page, '3-thank-you');
    expect(failures).toEqual([]);
    expect(csp).toEqual([]);
    await page.close();
  });

  it('the portal of a declined order does not say Paid', async () => {
    const created = await createOrder(t, seller, orderBody(product.pid));
    const { page, failures } = await open();
    await page.goto(created.checkout_url);
    await page.getByLabel('Mobile number').fill('841110002');
    await Promise.all([page.waitForURL(created.checkout_url), page.getByRole('button', { name: 'Pay now' }).click()]);
    await Promise.all([page.waitForURL(/\/order\//), page.getByRole('link', { name: 'View your order' }).click()]);
    expect(await page.getByTestId('order-amount').textContent()).toMatch(/^Total \(not paid\)\s*150\.00 MZN$/);
    expect(await page.locator('body').textContent()).not.toMatch(/\bPaid\b/);
    await shot(page, '4-declined-portal');
    expect(failures).toEqual([]);
    await page.close();
  });

  it('a renewal checkout says so and names the plan; cancelling the subscription is confirmed', async () => {
    const club = await insertProduct(t, seller.storeId, { name: 'Clube do Livro', type: 'recurring', price: null });
    const plan = await insertPlan(t, seller.storeId, club.id, { name: 'Mensal', price: '300.00' });
    t.clock.set(new Date('2027-05-02T10:00:00Z'));
    const created = await createOrder(t, seller, orderBody(club.pid, { amount: 300, plan_id: plan.planId }));
    const { page, failures, csp } = await open();
    await page.goto(created.checkout_url);
    expect(await page.getByTestId('renewal').count()).toBe(0);
    await page.getByLabel('Mobile number').fill('841230003');
    await Promise.all([page.waitForURL(/thanks=1$/), page.getByRole('button', { name: 'Pay now' }).click()]);
    const portalUrl = page.url().replace(/&thanks=1$/, '');
    const order = (await t.http.get(`/v1/orders/${created.order_number}`).set(seller.auth).expect(200)).body.order;
    const end = new Date(order.subscription.end_date);
    // The sweep opens the renewal (its automatic charge of …0003 is declined): the portal offers it.
    await sweepFor(t, order.subscription.id, new Date(end.getTime() - 71 * 3_600_000));
    await page.goto(portalUrl);
    await Promise.all([page.waitForURL(/\/token\//), page.getByRole('button', { name: 'Pay the renewal' }).click()]);
    expect(await page.getByTestId('renewal').textContent()).toBe('Renewal of your subscription to the Mensal plan');
    expect(await page.getByTestId('product-name').textContent()).toBe('Clube do Livro');
    await fitsScreen(page);
    await shot(page, '5-renewal-checkout');

    await page.goto(portalUrl);
    await page.getByTestId('confirm-cancel').check();
    await Promise.all([
      page.waitForURL(/cancelled=1$/),
      page.getByRole('button', { name: 'Cancel subscription' }).click(),
    ]);
    expect(await page.getByTestId('cancel-confirmation').textContent()).toMatch(
      /Your subscription is cancelled: it will not renew, and you keep access until \d{4}-\d{2}-\d{2}\./,
    );
    await fitsScreen(page);
    await shot(page, '6-cancelled');
    expect(failures).toEqual([]);
    expect(csp).toEqual([]);
    await page.close();
  });
});
