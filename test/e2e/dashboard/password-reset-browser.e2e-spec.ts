import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Browser, Page } from 'playwright-core';
import { SellersService } from '../../../src/modules/identity/sellers/sellers.service';
import { expectNoPageErrors, launchBrowser, openPage, screenshot } from '../../utils/browser';
import { createTestApp, TestApp } from '../../utils/test-app';
import { waitForResetMail } from '../identity/support/reset-mail';

jest.setTimeout(300_000);

/** Where the screenshots go (SHOTS_DIR overrides it): looked at by a person, not compared. */
const SHOTS = process.env.SHOTS_DIR ?? '/tmp/shots-reset';

/**
 * A forgotten password in headless Chromium at desktop and phone widths: the login page's "Forgot
 * password?" link, the request, the link read from the outbox's email, the new password (with the
 * field messages first) and a login with it; no horizontal scroll, no console error, no
 * content-security-policy violation.
 */
describe.each([1280, 390])('password reset in a real browser at %i px', (width) => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let cspViolations: string[];
  let consoleErrors: string[];
  const dataDir = mkdtempSync(join(tmpdir(), 'reset-browser-'));
  const email = `reset-${width}-${Date.now()}@example.com`;
  const web = () => `${t.baseUrl}/web`;
  const shot = (name: string) => screenshot(page, SHOTS, `reset-${name}-${width}`, width);

  beforeAll(async () => {
    t = await createTestApp({ listen: true, env: { DATA_DIR: dataDir } });
    await t.app.get(SellersService).register({
      name: 'Lia Seller',
      email,
      password: 'the forgotten password',
      storeName: 'Lia Courses',
    });
    browser = await launchBrowser();
    // A refused form is answered 422, a spent link 410, on purpose; Chromium logs the status.
    ({ page, consoleErrors, cspViolations } = await openPage(browser, width, { expectedStatuses: [410, 422] }));
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  afterEach(() => expectNoPageErrors({ consoleErrors, cspViolations }));

  it('login page → Forgot password → the emailed link → a new password → logged in with it', async () => {
    await page.goto(`${web()}/login`);
    await shot('login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL(`${web()}/forgot-password`);
    await shot('forgot');

    await page.fill('#email', email);
    await page.getByRole('button', { name: 'Email me a link' }).click();
    await page.getByTestId('notice').waitFor();
    expect(await page.getByTestId('notice').innerText()).toContain(email);
    await shot('forgot-sent');

    const mail = await waitForResetMail(dataDir, email);
    expect(mail.link.startsWith(`${web()}/reset-password?token=`)).toBe(true);
    await page.goto(mail.link);
    await shot('reset-form');

    await page.fill('#new_password', 'short');
    await page.fill('#confirm_password', 'short');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.getByTestId('error-new_password').waitFor();
    expect(await page.getByTestId('error-new_password').innerText()).toBe('Use at least 8 characters.');
    await page.fill('#new_password', 'my new long password');
    await page.fill('#confirm_password', 'my new long passwort');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.getByTestId('error-confirm_password').waitFor();
    await shot('reset-errors');

    await page.fill('#new_password', 'my new long password');
    await page.fill('#confirm_password', 'my new long password');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.waitForURL(`${web()}/login?reset=1`);
    expect(await page.getByTestId('notice').innerText()).toBe('Your password is changed. Log in with the new one.');
    await shot('login-after-reset');

    await page.fill('#email', email);
    await page.fill('#password', 'my new long password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${web()}/`);
    await shot('logged-in');

    // The link is spent: opening it again explains why and offers a new one.
    await page.goto(mail.link);
    expect(await page.getByTestId('reset-error').innerText()).toContain('already been used');
    await shot('link-used');
  });
});
