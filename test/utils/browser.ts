import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, chromium, Page } from 'playwright-core';
import { SellersService } from '../../src/modules/identity/sellers/sellers.service';
import { watchCsp } from './csp';
import type { TestApp } from './test-app';

/** Debian's Chromium, headless, without the background traffic that slows a test down. */
export const CHROMIUM_PATH = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

export interface WatchedPage {
  page: Page;
  /** Every console error and uncaught page error, prefixed with the page's address. */
  consoleErrors: string[];
  /** Every Content-Security-Policy violation (see csp.ts). */
  cspViolations: string[];
}

/**
 * A page `width` px wide (900 px high unless told) that records its console errors and CSP
 * violations. `expectedStatuses` are answers the test provokes on purpose (a refused form is 422):
 * Chromium logs them as console errors, which are not recorded.
 */
export async function openPage(
  browser: Browser,
  width: number,
  options: { height?: number; expectedStatuses?: number[] } = {},
): Promise<WatchedPage> {
  const page = await browser.newPage({ viewport: { width, height: options.height ?? 900 } });
  const cspViolations = await watchCsp(page);
  const consoleErrors: string[] = [];
  const statuses = options.expectedStatuses ?? [];
  const expected = new RegExp(`Failed to load resource: the server responded with a status of (${statuses.join('|')})`);
  page.on('console', (message) => {
    if (message.type() === 'error' && !(statuses.length > 0 && expected.test(message.text())))
      consoleErrors.push(`${page.url()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => consoleErrors.push(`${page.url()}: ${error.message}`));
  return { page, consoleErrors, cspViolations };
}

/**
 * Signs a new seller up through the dashboard's form; the page ends on the dashboard's home.
 * Gives the new seller's and store's ids.
 */
export async function signUpInDashboard(
  page: Page,
  t: TestApp,
  seller: { name: string; email: string; password: string; storeName: string },
): Promise<{ sellerId: number; storeId: number }> {
  const baseUrl = t.baseUrl;
  await page.goto(`${baseUrl}/web/signup`);
  await page.fill('#name', seller.name);
  await page.fill('#email', seller.email);
  await page.fill('#password', seller.password);
  await page.fill('#store_name', seller.storeName);
  await Promise.all([page.waitForURL(`${baseUrl}/web/`), page.click('form button[type=submit]')]);
  const sellers = t.app.get(SellersService);
  const sellerId = (await sellers.findByEmail(seller.email))!.id;
  return { sellerId, storeId: (await sellers.findStoreOfSeller(sellerId))!.id };
}

/** Logs in through the dashboard's login form; the page ends on the dashboard's home. */
export async function logInToDashboard(page: Page, baseUrl: string, email: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/web/login`);
  await page.fill('#email', email);
  await page.fill('#password', password);
  await Promise.all([page.waitForURL(`${baseUrl}/web/`), page.click('form button[type=submit]')]);
}

/** For an `afterEach`: no console error and no CSP violation since the last test. */
export function expectNoPageErrors(watched: { consoleErrors: string[]; cspViolations?: string[] }): void {
  expect(watched.consoleErrors.splice(0)).toEqual([]);
  if (watched.cspViolations) expect(watched.cspViolations.splice(0)).toEqual([]);
}

/**
 * Saves a full-page screenshot as `<dir>/<name>.png`, to be looked at by a person, not compared.
 * With `fitsWidth`, the page must also be usable at that width: nothing wider than the screen.
 */
export async function screenshot(page: Page, dir: string, name: string, fitsWidth?: number): Promise<void> {
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
  if (fitsWidth !== undefined)
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(fitsWidth);
}
