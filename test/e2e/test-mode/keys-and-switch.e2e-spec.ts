import { createSeller } from '../../utils/auth';
import { runCli } from '../../utils/run-process';
import { createTestApp, TestApp } from '../../utils/test-app';
import { follow, signUp, submit, testId, webAgent } from '../identity/support/web';

jest.setTimeout(120_000);

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** `submit`, failing unless it answers `status`. */
async function post(
  agent: ReturnType<typeof webAgent>,
  page: string,
  action: string,
  form: Record<string, string | string[]>,
  status: number,
) {
  const res = await submit(agent, page, action, form);
  if (res.status !== status) throw new Error(`POST ${action}: ${res.status} ${res.text.slice(0, 300)}`);
  return res;
}

describe('test mode: keys, the dashboard switch and what each key reaches', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('the switch makes the session show the test store under a banner, and its keys are sk_test_', async () => {
    const agent = webAgent(t);
    await signUp(agent);
    const live = await follow(
      agent,
      await post(
        agent,
        '/web/settings/api',
        '/web/settings/api/keys',
        {
          name: 'live key',
          scopes: ['products.read', 'products.write'],
        },
        303,
      ),
    );
    const liveToken = testId(live.text, 'api-key-token');
    expect(liveToken).toMatch(/^sk_[0-9A-Za-z]{40}$/);
    expect(live.text).not.toContain('data-testid="test-mode-banner"');
    expect(live.text).toContain('aria-checked="false"');

    const on = await post(
      agent,
      '/web/settings/api',
      '/web/test-mode',
      {
        test: 'on',
        next: '/web/settings/api',
      },
      303,
    );
    expect(on.headers.location).toBe('/web/settings/api');
    const keysPage = await agent.get('/web/settings/api').expect(200);
    expect(keysPage.text).toContain('data-testid="test-mode-banner"');
    expect(keysPage.text).toContain('aria-checked="true"');
    // The test store's keys: the live key is not listed while the switch is on.
    expect(keysPage.text).not.toContain('live key');
    const created = await follow(
      agent,
      await post(
        agent,
        '/web/settings/api',
        '/web/settings/api/keys',
        {
          name: 'test key',
          scopes: ['products.read', 'products.write'],
        },
        303,
      ),
    );
    const testToken = testId(created.text, 'api-key-token');
    expect(testToken).toMatch(/^sk_test_[0-9A-Za-z]{40}$/);

    // Each key reaches its own mode only; the other mode's ids are 404.
    const testProduct = (
      await t.http.post('/v1/products').set(bearer(testToken)).send({ name: 'Test ebook', price: 10 }).expect(201)
    ).body.product;
    const liveProduct = (
      await t.http.post('/v1/products').set(bearer(liveToken)).send({ name: 'Live ebook', price: 10 }).expect(201)
    ).body.product;
    await t.http.get(`/v1/products/${testProduct.pid}`).set(bearer(liveToken)).expect(404);
    await t.http.get(`/v1/products/${testProduct.id}`).set(bearer(liveToken)).expect(404);
    await t.http.get(`/v1/products/${liveProduct.pid}`).set(bearer(testToken)).expect(404);
    await t.http.patch(`/v1/products/${liveProduct.pid}`).set(bearer(testToken)).send({ name: 'x' }).expect(404);
    const liveList = (await t.http.get('/v1/products').set(bearer(liveToken)).expect(200)).body.products;
    expect(liveList.map((p: { pid: string }) => p.pid)).toEqual([liveProduct.pid]);
    const testList = (await t.http.get('/v1/products').set(bearer(testToken)).expect(200)).body.products;
    expect(testList.map((p: { pid: string }) => p.pid)).toEqual([testProduct.pid]);

    // Switched off: the live store again, no banner.
    await post(agent, '/web/settings/api', '/web/test-mode', { test: 'off', next: '/web/settings/api' }, 303);
    const back = await agent.get('/web/settings/api').expect(200);
    expect(back.text).not.toContain('data-testid="test-mode-banner"');
    expect(back.text).toContain('live key');
    expect(back.text).not.toContain('test key');
  });

  it('the switch needs a session and the form token', async () => {
    const res = await webAgent(t).post('/web/test-mode').type('form').send({ test: 'on' });
    expect(res.status).toBe(403);
    const agent = webAgent(t);
    await signUp(agent);
    const page = await agent.get('/web/').expect(200);
    expect(page.text).toContain('data-testid="test-mode-switch"');
    await agent.post('/web/test-mode').type('form').send({ test: 'on' }).expect(403);
    expect((await agent.get('/web/').expect(200)).text).not.toContain('data-testid="test-mode-banner"');
  });

  it('OAuth apps stay live while the switch is on', async () => {
    const agent = webAgent(t);
    await signUp(agent);
    await post(agent, '/web/', '/web/test-mode', { test: 'on' }, 303);
    const res = await submit(agent, '/web/apps', '/web/apps', {
      name: 'Partner',
      redirect_uris: 'https://p.example/cb',
    });
    expect(res.status).toBe(303);
    const [row] = await t.dataSource.query(
      `SELECT s.live_store_id FROM oauth_apps a JOIN stores s ON s.id = a.store_id WHERE a.name = 'Partner'`,
    );
    expect(row.live_store_id).toBeNull();
  });

  it('api-key:create --test prints a test key of the seller’s test store', async () => {
    const seller = await createSeller(t);
    const res = await runCli(
      ['api-key:create', '--email', seller.email, '--name', 'ci', '--scopes', 'products.read', '--test'],
      { DATABASE_URL: t.config.database.url! },
    );
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.json).toEqual({
      id: expect.any(Number),
      token: expect.stringMatching(/^sk_test_/),
      scopes: ['products.read'],
    });
    const [key] = await t.dataSource.query(
      `SELECT s.live_store_id FROM api_keys k JOIN stores s ON s.id = k.store_id WHERE k.id = $1`,
      [res.json.id],
    );
    expect(key.live_store_id).toBe(seller.storeId);
    await t.http.get('/v1/products').set(bearer(res.json.token)).expect(200);
  });
});
