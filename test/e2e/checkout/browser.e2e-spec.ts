import { join } from 'node:path';
import { Browser, Page } from 'playwright-core';
import { expectNoPageErrors, launchBrowser, openPage, screenshot, WatchedPage } from '../../utils/browser';
import { createSeller, TestSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';
import { createOrder, insertBump, insertDiscount, insertPlan, insertProduct, orderBody } from '../billing/fixtures';
import { HOUR, sweepFor } from '../subscriptions/helpers';

jest.setTimeout(180_000);

/** Screenshots of each step under test/artifacts/, to look at as a buyer would. */
const ARTIFACTS = join(__dirname, '..', '..', 'artifacts');

const WIDTHS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
];

/** Words without a space, as sellers type them: they must wrap, not widen the page. */
const LONG_PRODUCT = `Curso${'DeFotografia'.repeat(20)}`.slice(0, 240);
const LONG_ADDON = `Presets${'Lightroom'.repeat(22)}`.slice(0, 200);
const LONG_BRAND = `Loja${'Aurora'.repeat(16)}`;
const LONG_PLAN = `Mensal${'Premium'.repeat(12)}`;

/**
 * The checkout and the portal in a real browser (billing README, `checkout/`): the Total follows
 * the add-ons ticked, an error keeps every choice, the sandbox notice in every state, the choices
 * grouped for assistive tech, a renewal without a cancel button, and long words that wrap.
 */
describe.each(WIDTHS)('the checkout in a real browser at $width px', ({ name, width, height }) => {
  let t: TestApp;
  let seller: TestSeller;
  let browser: Browser;
  let watched: WatchedPage;
  let page: Page;
  let product: { id: number; pid: string };
  let small: number;
  let large: number;

  beforeAll(async () => {
    t = await createTestApp({ listen: true });
    seller = await createSeller(t, { brand: LONG_BRAND });
    product = await insertProduct(t, seller.storeId, { name: LONG_PRODUCT, price: '150.00', imageUrl: null });
    const addon = await insertProduct(t, seller.storeId, { name: LONG_ADDON, imageUrl: null });
    const album = await insertProduct(t, seller.storeId, { name: 'Album', imageUrl: null });
    small = await insertBump(t, seller.storeId, product.id, addon.id, '25.55');
    large = await insertBump(t, seller.storeId, product.id, album.id, '1234.10');
    await insertDiscount(t, seller.storeId, { code: 'AURORA10', type: 'fixed', value: '10.00' });
    browser = await launchBrowser();
    watched = await openPage(browser, width, { height, expectedStatuses: [404, 409, 422] });
    page = watched.page;
  });
  afterEach(() => expectNoPageErrors(watched));
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const shot = (step: string) => screenshot(page, ARTIFACTS, `checkout-${step}-${name}`, width);
  const total = () => page.getByTestId('total').textContent();
  const bump = (id: number) => page.locator(`input[name="bumps"][value="${id}"]`);
  const payNow = (url: string | RegExp) =>
    Promise.all([page.waitForURL(url), page.getByRole('button', { name: 'Pay now' }).click()]);

  it('the Total follows the add-ons ticked, exactly; an error keeps every choice', async () => {
    const created = await createOrder(t, seller, orderBody(product.pid, { amount: 150, coupon_code: 'AURORA10' }));
    await page.goto(created.checkout_url);
    expect(await total()).toBe('140.00 MZN');
    // The choices are groups with a name, for a screen reader as for the eye.
    expect(await page.getByRole('group', { name: 'Pay with' }).getByRole('radio').count()).toBe(2);
    expect(await page.getByRole('group', { name: 'Add to your order' }).getByRole('checkbox').count()).toBe(2);
    await shot('1-pending');

    await bump(small).check();
    expect(await total()).toBe('165.55 MZN');
    await bump(large).check();
    expect(await total()).toBe('1,399.65 MZN');
    await bump(small).uncheck();
    expect(await total()).toBe('1,374.10 MZN');

    await page.getByLabel('e-Mola').check();
    await page.getByLabel('Mobile number').fill('abc');
    await payNow(/\/pay$/);
    expect(await page.locator('p.error').textContent()).toContain('Enter the mobile number you pay with');
    expect(await page.getByLabel('e-Mola').isChecked()).toBe(true);
    expect(await page.getByLabel('M-Pesa').isChecked()).toBe(false);
    expect(await page.getByLabel('Mobile number').inputValue()).toBe('abc');
    expect(await bump(large).isChecked()).toBe(true);
    expect(await bump(small).isChecked()).toBe(false);
    expect(await total()).toBe('1,374.10 MZN');
    await shot('2-refused');

    // Declined: the sandbox notice is still there, with what the attempt held.
    await page.getByLabel('Mobile number').fill('841110002');
    await payNow(created.checkout_url);
    expect(await page.getByTestId('decline-reason').textContent()).toContain('Payment declined');
    expect(await page.getByTestId('test-mode').textContent()).toBe('Test payment: no money moves');
    expect(await total()).toBe('1,374.10 MZN');
    await shot('3-declined');

    await Promise.all([page.waitForURL(created.checkout_url), page.getByRole('button', { name: 'Try again' }).click()]);
    expect(await bump(large).isChecked()).toBe(true);
    expect(await total()).toBe('1,374.10 MZN');
    await page.getByLabel('Mobile number').fill('841234567');
    await payNow(/thanks=1$/);
    expect(await page.getByTestId('thank-you-product').textContent()).toBe(LONG_PRODUCT);
    expect(await page.getByTestId('thank-you-bumps').textContent()).toBe('Album');
    expect(await page.getByTestId('order-bump').allTextContents()).toEqual(['Album+1,234.10 MZN']);
    expect(await page.getByTestId('order-amount').textContent()).toBe('Paid1,374.10 MZN');
    await shot('4-thank-you');

    // The link opened again: approved, and still a test payment.
    await page.goto(created.checkout_url);
    expect(await page.getByTestId('test-mode').textContent()).toBe('Test payment: no money moves');
    expect(await total()).toBe('1,374.10 MZN');
    await shot('5-approved');

    await page.goto(`${t.config.urls.pay}/`);
    expect(await page.title()).toBe('Not found');
    await shot('6-not-found');
  });

  it('a buy link: the buyer’s details, errors beside their fields, then the checkout of the order it made', async () => {
    const club = await insertProduct(t, seller.storeId, {
      name: LONG_PRODUCT,
      type: 'recurring',
      price: null,
      imageUrl: null,
    });
    await t.dataSource.query(`UPDATE products SET status_2 = 'approved' WHERE id = $1`, [club.id]);
    const yearly = await insertPlan(t, seller.storeId, club.id, {
      name: LONG_PLAN,
      price: '3000.00',
      interval: 'year',
    });
    await insertPlan(t, seller.storeId, club.id, { name: 'Monthly', price: '300.00' });
    await page.goto(`${t.config.urls.pay}/buy/${club.pid}?coupon=AURORA10`);
    expect(await page.getByRole('group', { name: 'Choose a plan' }).getByRole('radio').count()).toBe(2);
    await shot('10-buy');

    await page.getByRole('radio', { name: new RegExp(LONG_PLAN) }).check();
    await page.getByLabel('Email').fill('ana@');
    await Promise.all([page.waitForLoadState(), page.getByRole('button', { name: 'Continue to payment' }).click()]);
    expect(await page.getByText('Enter your name.').isVisible()).toBe(true);
    expect(await page.getByLabel('Email').inputValue()).toBe('ana@');
    expect(await page.getByRole('radio', { name: new RegExp(LONG_PLAN) }).isChecked()).toBe(true);
    await shot('11-buy-errors');

    await page.getByLabel('Your name').fill('Ana Macuácua');
    await page.getByLabel('Email').fill('ana@example.com');
    await page.getByLabel('Mobile number').fill('+258841234567');
    await Promise.all([
      page.waitForURL(/\/token\//),
      page.getByRole('button', { name: 'Continue to payment' }).click(),
    ]);
    expect(await total()).toBe('2,990.00 MZN');
    expect(await page.getByTestId('plan').textContent()).toContain(LONG_PLAN);
    await page.getByLabel('Mobile number').fill('841234567');
    await payNow(/thanks=1$/);
    await shot('12-buy-paid');
    const orders = await t.http.get(`/v1/orders?product=${club.pid}`).set(seller.auth).expect(200);
    expect(orders.body.orders).toHaveLength(1);
    expect(orders.body.orders[0]).toMatchObject({ status: 'approved', plan: { plan_id: yearly.planId } });
  });

  it('a renewal says so, offers no cancel button and leads to its subscription', async () => {
    const club = await insertProduct(t, seller.storeId, {
      name: LONG_PRODUCT,
      type: 'recurring',
      price: null,
      imageUrl: null,
    });
    const plan = await insertPlan(t, seller.storeId, club.id, { name: LONG_PLAN, price: '300.00' });
    t.clock.set(new Date('2027-05-02T10:00:00Z'));
    const created = await createOrder(t, seller, orderBody(club.pid, { amount: 300, plan_id: plan.planId }));
    await page.goto(created.checkout_url);
    await page.getByLabel('Mobile number').fill('841230003');
    await payNow(/thanks=1$/);
    await shot('7-subscribed');
    const portal = page.url().replace(/&thanks=1$/, '');
    // The first order's link, opened again once paid: not a renewal.
    await page.goto(created.checkout_url);
    expect(await page.getByTestId('order-state').isVisible()).toBe(true);
    expect(await page.getByTestId('renewal').count()).toBe(0);

    const order = (await t.http.get(`/v1/orders/${created.order_number}`).set(seller.auth).expect(200)).body.order;
    await sweepFor(t, order.subscription.id, new Date(new Date(order.subscription.end_date).getTime() - 71 * HOUR));
    await page.goto(portal);
    await Promise.all([page.waitForURL(/\/token\//), page.getByRole('button', { name: 'Pay the renewal' }).click()]);
    expect(await page.getByTestId('renewal').textContent()).toBe(
      `Renewal of your subscription to the ${LONG_PLAN} plan`,
    );
    expect(await page.getByRole('button', { name: 'Cancel' }).count()).toBe(0);
    await shot('8-renewal');
    await Promise.all([page.waitForURL(portal), page.getByRole('link', { name: 'Manage your subscription' }).click()]);
    expect(await page.getByRole('button', { name: 'Cancel subscription' }).count()).toBe(1);
    await shot('9-subscription');
  });
});
