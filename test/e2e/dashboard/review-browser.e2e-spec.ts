import { existsSync, readdirSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Browser, Page } from 'playwright-core';
import { SellersService } from '../../../src/modules/identity/sellers/sellers.service';
import { createSeller, TestSeller } from '../../utils/auth';
import { expectNoPageErrors, launchBrowser, logInToDashboard, openPage, screenshot } from '../../utils/browser';
import { createTestApp, TestApp } from '../../utils/test-app';
import { insertFile, insertProduct } from '../billing/fixtures';
import { waitUntil } from '../webhooks/helpers';

jest.setTimeout(300_000);

const SHOTS = '/tmp/shots-review';

/**
 * Dashboard → Review walked by an operator in headless Chromium at desktop and phone widths: the
 * queue, a rejection (first without a reason) and an approval, each confirmed on its own page, with
 * a screenshot of each step under /tmp/shots-review/, no horizontal scroll, no console error and no
 * content-security-policy violation.
 */
describe.each([1280, 390])('review queue in a real browser at %i px', (width) => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let cspViolations: string[];
  let consoleErrors: string[];
  const dataDir = mkdtempSync(join(tmpdir(), 'review-browser-'));
  const web = () => `${t.baseUrl}/web`;
  const shot = (name: string) => screenshot(page, SHOTS, `review-${name}-${width}`, width);
  let operator: TestSeller;
  let seller: TestSeller;
  const products: Array<{ id: number; pid: string; name: string }> = [];

  const statusOf = async (pid: string): Promise<string> =>
    (await t.dataSource.query(`SELECT status_2 FROM products WHERE pid = $1`, [pid]))[0].status_2;

  beforeAll(async () => {
    t = await createTestApp({ listen: true, env: { DATA_DIR: dataDir } });
    operator = await createSeller(t);
    await t.app.get(SellersService).setOperator(operator.email, true);
    seller = await createSeller(t, { brand: 'Lia Courses' });
    const other = await createSeller(t, { currency: 'USD' });
    const submitted = [
      {
        store: seller,
        name: 'Portrait photography from scratch',
        price: '1250.00',
        description:
          'Twelve video lessons on portraits with natural light, with exercises and a workbook.\n\nFor beginners.',
      },
      { store: other, name: 'Sound design basics', price: '49.90', description: 'Five lessons.' },
      {
        store: seller,
        name: 'Night sky photography: a very long product name that has to wrap on a phone screen',
        price: '300.00',
        description: 'Stars and the Milky Way.',
      },
    ];
    for (const values of submitted) {
      const product = await insertProduct(t, values.store.storeId, { name: values.name, price: values.price });
      await t.dataSource.query(
        `UPDATE products SET status_2 = 'pending', description = $2, sale_page_url = $3, category = 'courses',
           subcategory = 'photography', contact_number = '+258841234567' WHERE id = $1`,
        [product.id, values.description, `https://sales.example.com/${product.pid}/a-long-sale-page-address`],
      );
      await insertFile(t, values.store.storeId, product.id, {
        name: 'lesson.pdf',
        externalUrl: 'https://f.example.com/1.pdf',
      });
      products.push(product);
    }

    browser = await launchBrowser();
    // A refused form is answered 422 on purpose; Chromium logs the status.
    ({ page, consoleErrors, cspViolations } = await openPage(browser, width, { expectedStatuses: [422] }));

    await logInToDashboard(page, t.baseUrl, operator.email, operator.password);
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  afterEach(() => expectNoPageErrors({ consoleErrors, cspViolations }));

  it('the operator reaches the queue from the navigation and sees each pending product', async () => {
    await page.getByTestId('nav-review').click();
    await page.waitForURL(`${web()}/review`);
    await shot('queue');
    expect(await page.getByTestId('review-count').textContent()).toBe(
      '3 products pending review, the longest waiting first.',
    );
    const first = page.locator(`[data-testid=review-item][data-pid="${products[0].pid}"]`);
    expect(await first.getByTestId('review-price').textContent()).toBe('1,250.00 MZN');
    expect(await first.getByTestId('review-files').textContent()).toBe('1 file');
    expect(await first.getByTestId('review-description').textContent()).toContain('Twelve video lessons');
    const second = page.locator(`[data-testid=review-item][data-pid="${products[1].pid}"]`);
    expect(await second.getByTestId('review-price').textContent()).toBe('49.90 USD');
  });

  it('rejects one product: a reason is required, then the decision is confirmed and emailed', async () => {
    const item = page.locator(`[data-testid=review-item][data-pid="${products[0].pid}"]`);
    await item.getByTestId('review-reject').click();
    await page.waitForURL(`${web()}/review/${products[0].pid}/reject`);
    await shot('reject-confirm');
    await page.getByTestId('confirm').click();
    expect(await page.getByTestId('error-reason').textContent()).toBe('reason is required.');
    await shot('reject-no-reason');
    expect(await statusOf(products[0].pid)).toBe('pending');
    await page.fill('#reason', 'The sale page shows another course.\nPlease use your own pictures.');
    await page.getByTestId('confirm').click();
    await page.waitForURL(`${web()}/review?reviewed=${products[0].pid}`);
    expect(await page.getByTestId('review-notice').textContent()).toBe(
      '“Portrait photography from scratch” is rejected. The seller is emailed the decision.',
    );
    await shot('rejected');
    expect(await statusOf(products[0].pid)).toBe('rejected');
    expect(await page.locator(`[data-pid="${products[0].pid}"]`).count()).toBe(0);
  });

  it('approves another, and the seller gets both emails', async () => {
    const item = page.locator(`[data-testid=review-item][data-pid="${products[2].pid}"]`);
    await item.getByTestId('review-approve').click();
    await page.waitForURL(`${web()}/review/${products[2].pid}/approve`);
    await shot('approve-confirm');
    await page.getByTestId('confirm').click();
    await page.waitForURL(`${web()}/review?reviewed=${products[2].pid}`);
    await shot('approved');
    expect(await statusOf(products[2].pid)).toBe('approved');
    expect(await page.getByTestId('review-count').textContent()).toBe(
      '1 product pending review, the longest waiting first.',
    );

    const outbox = join(dataDir, 'outbox');
    const emails = () => (existsSync(outbox) ? readdirSync(outbox).filter((f) => f.startsWith('product_review.')) : []);
    await waitUntil(
      () => emails().length === 2,
      30_000,
      () => `two review emails, found ${emails().join(', ')}`,
    );
  });
});
