import { ALL_SCOPES } from '../../../src/modules/identity/scopes';
import { SellersService } from '../../../src/modules/identity/sellers/sellers.service';
import { createSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';

describe('GET /v1/scopes', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('lists every scope with its endpoints and the scopes of the calling token, for any valid token', async () => {
    const seller = await createSeller(t, { scopes: ['orders.read'] });
    const res = await t.http.get('/v1/scopes').set(seller.auth).expect(200);
    expect(res.body.status).toBe('success');
    expect(res.body.granted_scopes).toEqual(['orders.read']);
    expect(res.body.scopes.map((s: { scope: string }) => s.scope)).toEqual(ALL_SCOPES);
    const user = res.body.scopes.find((s: { scope: string }) => s.scope === 'user.read');
    expect(user).toEqual({ scope: 'user.read', description: expect.any(String), endpoints: ['GET /v1/user'] });
    const all = res.body.scopes.flatMap((s: { endpoints: string[] }) => s.endpoints);
    for (const endpoint of all) expect(endpoint).toMatch(/^(GET|POST|PATCH|PUT|DELETE) \/v1\//);
    expect(all).not.toContain('POST /v1/oauth/token');
    expect(all).not.toContain('GET /v1/scopes');
  });

  it('matches what the guard enforces: each listed endpoint refuses a token without its scope', async () => {
    const seller = await createSeller(t, { scopes: ['user.read'] });
    const res = await t.http.get('/v1/scopes').set(seller.auth).expect(200);
    const reads = res.body.scopes
      .filter((s: { scope: string }) => s.scope !== 'user.read')
      .flatMap((s: { scope: string; endpoints: string[] }) =>
        s.endpoints.filter((e) => e.startsWith('GET ')).map((e) => [s.scope, e]),
      );
    for (const [scope, endpoint] of reads) {
      const path = endpoint.slice(4).replace(/\{[^}]+\}/g, '1');
      const denied = await t.http.get(path).set(seller.auth).expect(403);
      expect(denied.body.required_scopes).toContain(scope);
    }
  });

  it('401 without a token', async () => {
    const res = await t.http.get('/v1/scopes').expect(401);
    expect(res.body).toEqual({ status: 'error', message: 'Token not provided' });
  });
});

describe('rate limit per token', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_PER_MINUTE: '3' } });
  });
  afterAll(() => t.close());

  it('sends the RateLimit headers and answers 429 Too many requests. with Retry-After past the limit', async () => {
    const seller = await createSeller(t, { scopes: ['user.read'] });
    for (const remaining of [2, 1, 0]) {
      const res = await t.http.get('/v1/user').set(seller.auth).expect(200);
      expect(res.headers['ratelimit-limit']).toBe('3');
      expect(res.headers['ratelimit-remaining']).toBe(String(remaining));
      expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThanOrEqual(1);
      expect(Number(res.headers['ratelimit-reset'])).toBeLessThanOrEqual(60);
    }
    const limited = await t.http.get('/v1/user').set(seller.auth).expect(429);
    expect(limited.body).toEqual({ status: 'error', message: 'Too many requests.' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(limited.headers['ratelimit-remaining']).toBe('0');

    // Per token: another key of the same store has its own budget.
    const other = await seller.tokenWith(['user.read']);
    await t.http.get('/v1/user').set('Authorization', `Bearer ${other}`).expect(200);
  });

  it('counts 403 answers too, and sends no headers before authentication', async () => {
    const seller = await createSeller(t, { scopes: ['orders.read'] });
    const denied = await t.http.get('/v1/user').set(seller.auth).expect(403);
    expect(denied.headers['ratelimit-remaining']).toBe('2');
    const anonymous = await t.http.get('/v1/user').expect(401);
    expect(anonymous.headers['ratelimit-limit']).toBeUndefined();
  });
});

describe('rate limit shared through Redis (REDIS_URL)', () => {
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    const env = { RATE_LIMIT_PER_MINUTE: '4', REDIS_URL: 'redis://127.0.0.1:6379' };
    a = await createTestApp({ env });
    b = await createTestApp({ env });
  });
  afterAll(async () => {
    await a.close();
    await b.close();
  });

  it('two instances count the same token together', async () => {
    const seller = await createSeller(a, { scopes: ['user.read'] });
    // The same token row in the second instance's database: the key is the token's hash.
    const [key] = await a.dataSource.query(`SELECT * FROM api_keys WHERE store_id = $1`, [seller.storeId]);
    const { seller: s2, store: st2 } = await b.app
      .get(SellersService)
      .register({ name: 'B', email: seller.email, password: 'password123', storeName: 'B' });
    await b.dataSource.query(
      `INSERT INTO api_keys (store_id, seller_id, name, prefix, token_hash, scopes) VALUES ($1, $2, 'copy', $3, $4, $5)`,
      [st2.id, s2.id, key.prefix, key.token_hash, key.scopes],
    );
    const first = await a.http.get('/v1/user').set(seller.auth).expect(200);
    expect(first.headers['ratelimit-remaining']).toBe('3');
    const second = await b.http.get('/v1/user').set(seller.auth).expect(200);
    expect(second.headers['ratelimit-remaining']).toBe('2');
    await a.http.get('/v1/user').set(seller.auth).expect(200);
    await b.http.get('/v1/user').set(seller.auth).expect(200);
    await a.http.get('/v1/user').set(seller.auth).expect(429);
    await b.http.get('/v1/user').set(seller.auth).expect(429);
  });
});
