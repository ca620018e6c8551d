import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../utils/free-port';
import { runCli } from '../../utils/run-process';
import { spawnService, waitForHealthy } from '../../utils/service-process';
import { createTestApp, TestApp } from '../../utils/test-app';

jest.setTimeout(180_000);

/** Runs `npm run cli -- …` as an operator would. */
const cli = runCli;

describe('operator CLI on DATABASE_URL', () => {
  let t: TestApp;
  let env: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp();
    env = { DATABASE_URL: t.config.database.url! };
  });
  afterAll(() => t.close());

  it('seller:create, api-key:create and oauth-app:create print JSON and the credentials work', async () => {
    const seller = await cli(
      [
        'seller:create',
        '--email',
        'ops@example.com',
        '--password',
        'password123',
        '--name',
        'Ops',
        '--store',
        'Ops Store',
        '--currency',
        'usd',
      ],
      env,
    );
    expect(seller.code).toBe(0);
    expect(seller.json).toEqual({ seller_id: expect.any(Number), store_id: expect.any(Number) });

    const key = await cli(
      ['api-key:create', '--email', 'ops@example.com', '--name', 'ci', '--scopes', 'user.read,orders.read'],
      env,
    );
    expect(key.code).toBe(0);
    expect(key.json).toEqual({
      id: expect.any(Number),
      token: expect.stringMatching(/^sk_/),
      scopes: ['user.read', 'orders.read'],
    });
    const user = await t.http.get('/v1/user').set('Authorization', `Bearer ${key.json.token}`).expect(200);
    expect(user.body.user).toMatchObject({
      id: seller.json.seller_id,
      email: 'ops@example.com',
      store: { id: seller.json.store_id, currency: 'USD' },
    });

    const app = await cli(
      [
        'oauth-app:create',
        '--email',
        'ops@example.com',
        '--name',
        'Partner',
        '--redirect-uri',
        'https://p.example.com/cb',
        '--redirect-uri',
        'https://p.example.com/cb2',
      ],
      env,
    );
    expect(app.code).toBe(0);
    expect(app.json).toEqual({ client_id: expect.any(String), client_secret: expect.stringMatching(/^cs_/) });
    const rows = await t.dataSource.query(
      `SELECT redirect_uris, client_secret_hash FROM oauth_apps WHERE client_id = $1`,
      [app.json.client_id],
    );
    expect(rows[0].redirect_uris).toEqual(['https://p.example.com/cb', 'https://p.example.com/cb2']);
    expect(rows[0].client_secret_hash).toMatch(/^\$argon2id\$/);
  });

  it.each([
    [['nope'], /Unknown command nope/],
    [['seller:create', '--email', 'x@example.com'], /Missing --password/],
    [
      [
        'seller:create',
        '--email',
        'z@example.com',
        '--password',
        'password123',
        '--name',
        'Z',
        '--store',
        'Z',
        '--currency',
        'zzz',
      ],
      /--currency must be an ISO 4217 code/,
    ],
    [
      ['api-key:create', '--email', 'nobody@example.com', '--name', 'k', '--scopes', 'user.read'],
      /No seller with email/,
    ],
    [
      ['api-key:create', '--email', 'ops@example.com', '--name', 'k', '--scopes', 'root.all'],
      /Unknown scope: root.all/,
    ],
  ])('fails %j with exit code 1 and one line on stderr', async (args, message) => {
    const res = await cli(args, env);
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr.split('\n')).toHaveLength(1);
    expect(res.stderr).toMatch(message);
  });
});

describe('operator CLI beside a running server on the embedded database', () => {
  it('goes through the server database announced in pg.server.json', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'commerce-cli-'));
    const port = String(await freePort());
    const service = spawnService({ DATA_DIR: dataDir, PORT: port });
    try {
      await waitForHealthy(service);
      const env = { DATABASE_URL: '', DATA_DIR: dataDir };
      const seller = await cli(
        ['seller:create', '--email', 'live@example.com', '--password', 'password123', '--name', 'L', '--store', 'Live'],
        env,
      );
      expect(seller.stderr).toBe('');
      expect(seller.code).toBe(0);
      const key = await cli(
        ['api-key:create', '--email', 'live@example.com', '--name', 'k', '--scopes', 'user.read'],
        env,
      );
      expect(key.code).toBe(0);
      const res = await fetch(`${service.url}/v1/user`, { headers: { Authorization: `Bearer ${key.json.token}` } });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { user: { email: string } }).user.email).toBe('live@example.com');
    } finally {
      await service.stop('SIGTERM');
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('seed:demo and product:review', () => {
  let t: TestApp;
  let env: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp();
    env = { DATABASE_URL: t.config.database.url! };
  });
  afterAll(() => t.close());

  it('seeds a store whose products sell through their buy links, and one the operator approves', async () => {
    const seed = await cli(['seed:demo', '--json'], env);
    expect(seed.code).toBe(0);
    expect(seed.json).toEqual({
      seller: { email: expect.stringMatching(/@example\.com$/), password: expect.any(String) },
      store_id: expect.any(Number),
      api_key: expect.stringMatching(/^sk_[0-9A-Za-z]{40}$/),
      product_pid: expect.any(String),
      recurring_product_pid: expect.any(String),
      plan_id: expect.any(String),
      discount_code: expect.any(String),
      license: { product_pid: 'prod_demo_toolkit', id: expect.any(Number), key: expect.any(String) },
      webhook: null,
      checkout_url: expect.stringMatching(/\/pay\/token\/[0-9A-Za-z]{32}$/),
    });
    const auth = { Authorization: `Bearer ${seed.json.api_key}` };
    const user = await t.http.get('/v1/user').set(auth).expect(200);
    expect(user.body.user.store.currency).toBe('MZN');
    await t.http.get(`/v1/discounts/${seed.json.discount_code}`).set(auth).expect(200);
    await t.http.get(`/v1/plans/${seed.json.plan_id}`).set(auth).expect(200);

    // The products the demo sells are approved: their buy links open (README, *Buy links*).
    for (const pid of [seed.json.product_pid, seed.json.recurring_product_pid, 'prod_demo_toolkit']) {
      const sold = await t.http.get(`/v1/products/${pid}`).set(auth).expect(200);
      expect(sold.body.product.status_2).toBe('approved');
      await t.http.get(`/pay/buy/${pid}`).expect(200);
    }

    // The checklist stays a draft, "complete": every publish requirement holds.
    const checklist = 'prod_demo_checklist';
    await t.http.get(`/pay/buy/${checklist}`).expect(404);
    const published = await t.http.post(`/v1/products/${checklist}/publish`).set(auth).expect(200);
    expect(published.body.data.status).toBe('pending');

    const review = await cli(['product:review', '--product', checklist, '--decision', 'approve'], env);
    expect(review.code).toBe(0);
    expect(review.json).toEqual({ product_pid: checklist, status_2: 'approved' });
    const product = await t.http.get(`/v1/products/${checklist}`).set(auth).expect(200);
    expect(product.body.product.status_2).toBe('approved');
    await t.http.get(`/pay/buy/${checklist}`).expect(200);
  });

  it('product:review refuses an unknown decision with one line on stderr', async () => {
    const review = await cli(['product:review', '--product', 'prod_x', '--decision', 'maybe'], env);
    expect(review.code).toBe(1);
    expect(review.stderr.trim().split('\n')).toHaveLength(1);
    expect(review.stderr).toContain('--decision must be approve or reject');
  });
});
