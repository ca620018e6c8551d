import { createTestApp, TestApp } from '../../utils/test-app';

const NOT_FOUND_JSON = { status: 'error', message: 'Resource not found.' };
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** The checkout's 404 page: its title, its message and the customer pages' own policy. */
function expectCheckoutNotFoundPage(res: { status: number; headers: Record<string, string>; text: string }): void {
  expect(res.status).toBe(404);
  expect(res.headers['content-type']).toMatch(/^text\/html/);
  expect(res.text).toContain('<title>Not found</title>');
  expect(res.text).toContain('This link is not valid or has been replaced by a newer one.');
  expect(res.headers['content-security-policy']).toMatch(/^default-src 'none'/);
}

/**
 * Unknown paths under `{pay_url}` (billing README, `checkout/`): the checkout's HTML 404 page for a
 * browser, the contract's JSON 404 for `Accept: application/json`, as the pay surface's other 404s.
 */
describe('unknown paths under the pay surface', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it.each(['/pay', '/pay/', '/pay/nope', '/pay/token/abc/nope', '/pay/order/ORD-x/a/b', '/pay/download/x/y'])(
    '%s: the checkout 404 page for a browser, JSON for an API client, whatever the method',
    async (path) => {
      for (const method of METHODS) {
        const page = await t.http[method](path).set('Accept', 'text/html,application/xhtml+xml,*/*;q=0.8');
        expectCheckoutNotFoundPage(page);
        const json = await t.http[method](path).set('Accept', 'application/json');
        expect(json.status).toBe(404);
        expect(json.headers['content-type']).toMatch(/^application\/json/);
        expect(json.body).toEqual(NOT_FOUND_JSON);
      }
      expect((await t.http.head(path)).status).toBe(404);
    },
  );

  it('leaves the other surfaces and the known checkout routes as they were', async () => {
    // The API's unknown route stays its JSON 404 (`Resource not found.`), for a browser too.
    const api = await t.http.get('/v1/nope').set('Accept', 'text/html');
    expect(api.status).toBe(404);
    expect(api.body).toEqual(NOT_FOUND_JSON);
    const dashboard = await t.http.get('/web/nope').set('Accept', 'text/html').expect(404);
    expect(dashboard.text).toContain('There is no page at this address.');
    expectCheckoutNotFoundPage(await t.http.get('/pay/token/unknown').set('Accept', 'text/html'));
    await t.http.get('/pay/assets/demo-cover.svg').expect(200);
  });
});

/**
 * With a host name per surface every surface is mounted at `/` (README, *Configuration*): the pay
 * surface's catch-all is its host's alone, beside the dashboard's on its own host.
 */
describe('unknown paths when the pay surface has a host of its own', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      env: { WEB_URL: 'http://web.shop.test', PAY_URL: 'http://pay.shop.test', CDN_URL: 'http://cdn.shop.test' },
    });
  });
  afterAll(() => t?.close());

  it('starts, answers unknown paths of the pay host with the checkout 404, and leaves the other hosts alone', async () => {
    for (const path of ['/', '/nope', '/token/abc/nope']) {
      expectCheckoutNotFoundPage(await t.http.get(path).set('Host', 'pay.shop.test').set('Accept', 'text/html'));
      const json = await t.http.post(path).set('Host', 'pay.shop.test').set('Accept', 'application/json');
      expect(json.status).toBe(404);
      expect(json.body).toEqual(NOT_FOUND_JSON);
    }
    expectCheckoutNotFoundPage(await t.http.get('/token/unknown').set('Host', 'pay.shop.test'));
    // The dashboard's host keeps the dashboard's 404 page.
    const dashboard = await t.http.get('/nope').set('Host', 'web.shop.test').set('Accept', 'text/html').expect(404);
    expect(dashboard.text).toContain('There is no page at this address.');
    await t.http.get('/v1/health').expect(200);
  });
});
