import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Browser } from 'playwright-core';
import { launchBrowser, signUpInDashboard } from '../../utils/browser';
import { watchCsp } from '../../utils/csp';
import { createTestApp, TestApp } from '../../utils/test-app';

jest.setTimeout(120_000);

/** The partner app's callback: records what the browser brought. */
async function startReceiver(): Promise<{ server: Server; url: string; hits: URL[] }> {
  const hits: URL[] = [];
  const server = createServer((req, res) => {
    hits.push(new URL(req.url!, 'http://127.0.0.1'));
    res.writeHead(200, { 'Content-Type': 'text/html' }).end('<h1 id="received">Connected</h1>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`, hits };
}

function exchangeWithOAuth4WebApi(job: Record<string, string>): Promise<any> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [join(__dirname, 'support', 'oauth-client.mjs'), JSON.stringify(job)],
      (error, stdout, stderr) => (error ? reject(new Error(stderr || error.message)) : resolve(JSON.parse(stdout))),
    );
  });
}

describe('consent screen in a real browser (headless Chromium)', () => {
  let t: TestApp;
  let browser: Browser;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    t = await createTestApp({ listen: true });
    receiver = await startReceiver();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    receiver?.server.close();
    await t?.close();
  });

  it('signup → app registration → logout → authorize → login → approve → code exchanged by oauth4webapi', async () => {
    const page = await browser.newPage();
    const cspViolations = await watchCsp(page);
    const web = `${t.baseUrl}/web`;
    const email = `browser-${Date.now()}@example.com`;
    const password = 'browser password 1';

    await signUpInDashboard(page, t, { name: 'Bea', email, password, storeName: 'Bea Prints' });

    await page.goto(`${web}/apps`);
    await page.fill('#name', 'Print partner');
    await page.fill('#redirect_uris', receiver.url);
    await page.click('form[action$="/apps"] button[type=submit]');
    const clientId = (await page.textContent('[data-testid="client-id"]'))!.trim();
    const clientSecret = (await page.textContent('[data-testid="client-secret"]'))!.trim();

    await page.click('header button:has-text("Log out")');
    await page.waitForURL(`${web}/login`);

    const state = randomBytes(12).toString('base64url');
    const codeVerifier = randomBytes(32).toString('base64url');
    const authorizeUrl = new URL(`${web}/oauth/authorize`);
    authorizeUrl.search = new URLSearchParams({
      client_id: clientId,
      redirect_uri: receiver.url,
      state,
      scope: 'user.read orders.read orders.write',
      code_challenge: createHash('sha256').update(codeVerifier).digest('base64url'),
      code_challenge_method: 'S256',
    }).toString();
    await page.goto(authorizeUrl.toString());
    expect(new URL(page.url()).pathname).toBe('/web/login');
    await page.fill('#email', email);
    await page.fill('#password', password);
    await page.click('form[action$="/login"] button[type=submit]');
    await page.waitForURL((url) => url.pathname === '/web/oauth/authorize');

    expect(await page.textContent('[data-testid="app-name"]')).toBe('Print partner');
    expect(await page.isChecked('input[name="scopes"][value="orders.write"]')).toBe(true);
    await page.uncheck('input[name="scopes"][value="orders.write"]');
    await page.click('button[name="decision"][value="approve"]');
    await page.waitForURL((url) => url.href.startsWith(receiver.url));
    expect(await page.textContent('#received')).toBe('Connected');

    const callback = receiver.hits.filter((hit) => hit.pathname === '/callback').at(-1)!;
    expect(callback.searchParams.get('state')).toBe(state);
    expect(callback.searchParams.get('code')).toBeTruthy();

    const result = await exchangeWithOAuth4WebApi({
      issuer: t.baseUrl,
      tokenEndpoint: `${t.baseUrl}/v1/oauth/token`,
      clientId,
      clientSecret,
      redirectUri: receiver.url,
      callbackUrl: page.url(),
      state,
      codeVerifier,
    });
    expect(result.tokens).toMatchObject({
      token_type: 'bearer',
      expires_in: 2592000,
      permissions: ['user.read', 'orders.read'],
      scope: 'user.read orders.read',
    });
    expect(result.refreshed.access_token).toMatch(/^at_/);
    const user = await t.http
      .get('/v1/user')
      .set('Authorization', `Bearer ${result.refreshed.access_token}`)
      .expect(200);
    expect(user.body.user.email).toBe(email);

    // Every other dashboard page, and an error page, under the same Content-Security-Policy.
    for (const path of [
      '/',
      '/settings/api',
      '/apps',
      '/webhooks',
      '/oauth/authorize?client_id=nope&scope=user.read',
      '/no-such-page',
    ]) {
      await page.goto(`${web}${path}`);
      expect(await page.locator('body').count()).toBe(1);
    }
    await page.goto(`${web}/`);
    await page.click('header button:has-text("Log out")');
    await page.waitForURL(`${web}/login`);
    await page.goto(`${web}/signup`);
    expect(cspViolations).toEqual([]);
    await page.close();
  });
});
