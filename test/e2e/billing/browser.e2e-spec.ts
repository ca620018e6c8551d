import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Browser } from 'playwright-core';
import { launchBrowser } from '../../utils/browser';
import { watchCsp } from '../../utils/csp';
import { createSeller, TestSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';
import { createOrder, insertBump, insertProduct, orderBody } from './fixtures';

jest.setTimeout(120_000);

describe('checkout in a real browser', () => {
  let t: TestApp;
  let seller: TestSeller;
  let browser: Browser;
  let receiver: Server;
  let receiverUrl: string;
  const landed: string[] = [];

  beforeAll(async () => {
    t = await createTestApp({ listen: true });
    seller = await createSeller(t, { brand: 'Loja Aurora' });
    receiver = createServer((req, res) => {
      landed.push(req.url ?? '');
      res.writeHead(200, { 'Content-Type': 'text/html' }).end('<h1 id="thanks">Thank you</h1>');
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => receiver?.close(resolve));
    await t?.close();
  });

  it('opens checkout_url on a phone-sized screen, picks a bump, pays and lands on return_url', async () => {
    const product = await insertProduct(t, seller.storeId, {
      name: 'Curso de Fotografia',
      price: '150.00',
      imageUrl: null,
    });
    const addon = await insertProduct(t, seller.storeId, { name: 'Presets' });
    await insertBump(t, seller.storeId, product.id, addon.id, '20.00');
    const created = await createOrder(
      t,
      seller,
      orderBody(product.pid, { amount: 150, return_url: `${receiverUrl}/thanks` }),
    );

    const page = await browser.newPage({ viewport: { width: 375, height: 740 } });
    const cspViolations = await watchCsp(page);
    await page.goto(created.checkout_url);
    expect(await page.getByTestId('brand').textContent()).toBe('Loja Aurora');
    expect(await page.getByTestId('total').textContent()).toContain('150.00 MZN');
    // Readable on a phone: nothing wider than the screen.
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);

    await page.getByLabel(/Presets/).check();
    await page.getByLabel('e-Mola').check();
    await page.getByLabel('Mobile number').fill('861234567');
    await Promise.all([
      page.waitForURL(`${receiverUrl}/thanks`),
      page.getByRole('button', { name: 'Pay now' }).click(),
    ]);
    expect(await page.locator('#thanks').textContent()).toBe('Thank you');
    expect(landed).toContain('/thanks');

    const order = (await t.http.get(`/v1/orders/${created.order_number}`).set(seller.auth).expect(200)).body.order;
    expect(order).toMatchObject({ status: 'approved', amount: 170, transaction: { payment_method: 'emola' } });

    // The order portal and the not-found page work under the same Content-Security-Policy.
    const portal = new URL(created.checkout_url);
    portal.pathname = portal.pathname.replace(/\/token\/.*$/, `/order/${created.order_number}`);
    portal.search = `transaction_id=${order.transaction_id}`;
    await page.goto(portal.toString());
    expect(await page.locator('.status').first().textContent()).toMatch(/approved/i);
    await page.goto(created.checkout_url.replace(/token\/.*$/, 'token/unknown'));
    expect(cspViolations).toEqual([]);
    await page.close();
  });

  it('cancel button lands on cancel_url', async () => {
    const product = await insertProduct(t, seller.storeId);
    const created = await createOrder(t, seller, orderBody(product.pid, { cancel_url: `${receiverUrl}/cart` }));
    const page = await browser.newPage();
    const cspViolations = await watchCsp(page);
    await page.goto(created.checkout_url);
    await Promise.all([page.waitForURL(`${receiverUrl}/cart`), page.getByRole('button', { name: 'Cancel' }).click()]);
    const order = (await t.http.get(`/v1/orders/${created.order_number}`).set(seller.auth).expect(200)).body.order;
    expect(order.status).toBe('cancelled');
    expect(cspViolations).toEqual([]);
    await page.close();
  });
});
