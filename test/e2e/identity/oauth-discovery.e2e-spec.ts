import { ALL_SCOPES } from '../../../src/modules/identity/scopes';
import { createSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';
import { authorize, codeExchange, oauthFixture, OAuthFixture, pkcePair } from './support/oauth';

/** What lets standard clients work without hand-written endpoints. */
describe('OAuth discovery and challenges', () => {
  let t: TestApp;
  let f: OAuthFixture;

  beforeAll(async () => {
    t = await createTestApp();
    f = await oauthFixture(t);
  });
  afterAll(() => t.close());

  it('serves the RFC 8414 metadata at the root of the base host', async () => {
    const res = await t.http.get('/.well-known/oauth-authorization-server').expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const base = t.config.urls.base;
    expect(res.body).toEqual({
      issuer: base,
      authorization_endpoint: `${t.config.urls.web}/oauth/authorize`,
      token_endpoint: `${base}/v1/oauth/token`,
      revocation_endpoint: `${base}/v1/oauth/revoke`,
      scopes_supported: ALL_SCOPES,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      service_documentation: `${base}/docs`,
    });
    expect(res.body.scopes_supported).toContain('affiliates.write');
  });

  describe('state at the token endpoint', () => {
    it('may be left out for a code issued with a PKCE challenge', async () => {
      const pkce = pkcePair();
      const { code } = await authorize(f, { challenge: pkce.challenge });
      const { state: _omitted, ...body } = codeExchange(f, code, { code_verifier: pkce.verifier });
      const res = await t.http.post('/v1/oauth/token').send(body).expect(200);
      expect(res.body.access_token).toMatch(/^at_/);
    });

    it('must still match when sent with a PKCE code', async () => {
      const pkce = pkcePair();
      const { code } = await authorize(f, { challenge: pkce.challenge });
      const res = await t.http
        .post('/v1/oauth/token')
        .send(codeExchange(f, code, { code_verifier: pkce.verifier, state: 'other' }))
        .expect(400);
      expect(res.body).toMatchObject({ message: 'Invalid state', error: 'invalid_grant' });
    });

    it('is required for a code issued without PKCE', async () => {
      const { code } = await authorize(f);
      const { state: _omitted, ...body } = codeExchange(f, code);
      const res = await t.http.post('/v1/oauth/token').send(body).expect(400);
      expect(res.body).toMatchObject({ message: 'Invalid state', error: 'invalid_grant' });
    });
  });

  describe('WWW-Authenticate (RFC 6750)', () => {
    it('on every 401 of /v1, with error="invalid_token" only when a token was sent', async () => {
      const none = await t.http.get('/v1/orders').expect(401);
      expect(none.body.message).toBe('Token not provided');
      expect(none.headers['www-authenticate']).toBe('Bearer realm="commerce-api"');

      const notBearer = await t.http.get('/v1/orders').set('Authorization', 'Token abc').expect(401);
      expect(notBearer.body.message).toBe('Unauthorized user.');
      expect(notBearer.headers['www-authenticate']).toBe('Bearer realm="commerce-api"');

      const invalid = await t.http.get('/v1/scopes').set('Authorization', 'Bearer sk_nope').expect(401);
      expect(invalid.body.message).toBe('Invalid token');
      expect(invalid.headers['www-authenticate']).toBe('Bearer realm="commerce-api", error="invalid_token"');
      // No token is known yet: no rate-limit counter either.
      expect(invalid.headers['ratelimit-limit']).toBeUndefined();
    });

    it('on a scope 403, naming the scopes the route needs', async () => {
      const seller = await createSeller(t, { scopes: ['orders.read'] });
      const res = await t.http
        .post('/v1/discounts')
        .set(seller.auth)
        .send({ code: 'X', type: 'fixed', value: 1 })
        .expect(403);
      expect(res.headers['www-authenticate']).toBe('Bearer error="insufficient_scope", scope="discounts.write"');
      expect(res.headers['ratelimit-remaining']).toBeDefined();
    });

    it('on the token endpoint’s 401, with the Basic challenge first when Basic was tried', async () => {
      const post = await t.http
        .post('/v1/oauth/token')
        .send({ grant_type: 'refresh_token', client_id: f.clientId, client_secret: 'wrong' })
        .expect(401);
      expect(post.headers['www-authenticate']).toBe('Bearer realm="commerce-api"');
      const basic = await t.http.post('/v1/oauth/revoke').auth(f.clientId, 'wrong').send({ token: 'rt_x' }).expect(401);
      expect(basic.headers['www-authenticate']).toBe('Basic realm="commerce-api", Bearer realm="commerce-api"');
    });
  });
});

describe('OAuth metadata with a base URL that has a path (RFC 8414 §3)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { BASE_URL: 'http://127.0.0.1:3000/api' } });
  });
  afterAll(() => t.close());

  it('inserts the well-known segment between the host and the issuer’s path', async () => {
    const res = await t.http.get('/.well-known/oauth-authorization-server/api').expect(200);
    expect(res.body).toMatchObject({
      issuer: 'http://127.0.0.1:3000/api',
      token_endpoint: 'http://127.0.0.1:3000/api/v1/oauth/token',
      authorization_endpoint: 'http://127.0.0.1:3000/api/web/oauth/authorize',
    });
    await t.http.get('/api/.well-known/oauth-authorization-server').expect(404);
    await t.http.get('/.well-known/oauth-authorization-server').expect(404);
  });

  it('describes routes that a client joining the server URL and a path reaches', async () => {
    const doc = (await t.http.get('/api/docs-json').expect(200)).body;
    expect(doc.servers).toEqual([{ url: 'http://127.0.0.1:3000' }]);
    const health = Object.keys(doc.paths).find((path) => path.endsWith('/v1/health'))!;
    expect(health).toBe('/api/v1/health');
    const url = new URL(doc.servers[0].url + health);
    expect((await t.http.get(url.pathname).expect(200)).body).toMatchObject({ status: 'ok' });
  });
});
