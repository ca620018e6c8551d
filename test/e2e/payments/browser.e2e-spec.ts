import { Browser } from 'playwright-core';
import { launchBrowser } from '../../utils/browser';
import { createSeller, TestSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';
import { createOrder, insertProduct, orderBody } from '../billing/fixtures';
import { FakeMpesa } from './fakes/mpesa-fake';

jest.setTimeout(120_000);

describe('M-Pesa checkout in a real browser', () => {
  let t: TestApp;
  let seller: TestSeller;
  let browser: Browser;
  let fake: FakeMpesa;

  beforeAll(async () => {
    fake = await new FakeMpesa().start();
    t = await createTestApp({
      listen: true,
      env: { ...fake.env(), PAYMENT_SANDBOX: 'false', PAYMENT_RECONCILE_SECONDS: '3600' },
    });
    seller = await createSeller(t, { brand: 'Loja Aurora' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await fake?.stop();
  });

  it('checkout → "Confirm the payment on your phone" → the approved portal, the gateway answering after 8 s', async () => {
    const product = await insertProduct(t, seller.storeId, {
      name: 'Curso de Fotografia',
      price: '150.00',
      imageUrl: null,
    });
    await t.dataSource.query(
      `INSERT INTO product_files (store_id, product_id, name, kind, external_url, format) VALUES ($1, $2, 'Aula 1', 'link', 'https://files.example.com/a1', 'link')`,
      [seller.storeId, product.id],
    );
    const created = await createOrder(t, seller, orderBody(product.pid, { amount: 150 }));
    fake.on('847654321', { kind: 'success', delayMs: 8000 });

    const page = await browser.newPage({ viewport: { width: 375, height: 740 } });
    await page.goto(created.checkout_url);
    expect(await page.getByTestId('test-mode').count()).toBe(0);
    await page.getByLabel('Mobile number').fill('84 765 4321');
    const started = Date.now();
    await Promise.all([page.waitForURL(/\/pay$/), page.getByRole('button', { name: 'Pay now' }).click()]);
    // The pay route waited 5 s without an outcome: the waiting page, readable on a phone.
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_500);
    await page.getByRole('heading', { name: 'Confirm the payment on your phone' }).waitFor();
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);

    // It polls the status route and moves on by itself once M-Pesa answers.
    await page.waitForURL(/\/order\/ORD-/, { timeout: 30_000 });
    expect(await page.getByTestId('order-status').textContent()).toBe('approved');
    expect(await page.getByTestId('downloads').textContent()).toContain('Aula 1');
    // A download opens in a tab of its own: a file the browser shows (a PDF, a text) leaves the order page where it was.
    const opened = page.waitForEvent('popup');
    await page.getByTestId('downloads').getByRole('link', { name: 'Aula 1' }).click();
    await (await opened).close();
    expect(page.url()).toMatch(/\/order\/ORD-/);
    const order = (await t.http.get(`/v1/orders/${created.order_number}`).set(seller.auth).expect(200)).body.order;
    expect(order).toMatchObject({
      status: 'approved',
      transaction_id: fake.transactionOf(created.order_number)!.transactionId,
    });
    expect(fake.violations).toEqual([]);
    await page.close();
  });
});
