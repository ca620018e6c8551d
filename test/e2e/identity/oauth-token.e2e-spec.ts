import { createTestApp, TestApp } from '../../utils/test-app';
import { authorize, codeExchange, oauthFixture, OAuthFixture, pkcePair, REDIRECT_URI } from './support/oauth';
import { follow, registerApp, submit } from './support/web';

const oauthError = (message: string, error: string) => ({
  status: 'error',
  message,
  error,
  error_description: message,
});

describe('POST /v1/oauth/token', () => {
  let t: TestApp;
  let f: OAuthFixture;

  beforeAll(async () => {
    t = await createTestApp();
    f = await oauthFixture(t);
  });
  afterAll(() => t.close());

  it('exchanges a code for the tokens (the OpenAPI description) plus scope, never cached', async () => {
    const { code, state } = await authorize(f);
    expect(state).toBe('xyz-state');
    expect(code).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    const before = t.clock.now().getTime();
    const res = await t.http.post('/v1/oauth/token').send(codeExchange(f, code)).expect(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({
      access_token: expect.stringMatching(/^at_[0-9A-Za-z]{40}$/),
      refresh_token: expect.stringMatching(/^rt_[0-9A-Za-z]{40}$/),
      token_type: 'Bearer',
      expires_in: 2592000,
      expires_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/),
      permissions: ['user.read', 'orders.read'],
      scope: 'user.read orders.read',
    });
    const expiresAt = Date.parse(res.body.expires_at);
    expect(expiresAt - before).toBeGreaterThanOrEqual(2592000 * 1000 - 1000);
    expect(expiresAt - before).toBeLessThanOrEqual(2592000 * 1000 + 5000);

    const user = await t.http.get('/v1/user').set('Authorization', `Bearer ${res.body.access_token}`).expect(200);
    expect(user.body.user.store.name).toBe('Ana Books');
  });

  it('grants only the scopes the seller left checked, and the token behaves like an API key', async () => {
    const { code } = await authorize(f, { scope: 'user.read,orders.read,orders.write', approve: ['orders.read'] });
    const res = await t.http.post('/v1/oauth/token').send(codeExchange(f, code)).expect(200);
    expect(res.body.permissions).toEqual(['orders.read']);
    expect(res.body.scope).toBe('orders.read');
    const denied = await t.http.get('/v1/user').set('Authorization', `Bearer ${res.body.access_token}`).expect(403);
    expect(denied.body).toEqual({
      status: 'error',
      message: 'Permission denied for this endpoint.',
      error_code: 'insufficient_scope',
      required_scopes: ['user.read'],
      missing_scopes: ['user.read'],
      granted_scopes: ['orders.read'],
    });
  });

  it('accepts a form body with HTTP Basic client authentication', async () => {
    const { code } = await authorize(f);
    const { client_id, client_secret, ...body } = codeExchange(f, code);
    const res = await t.http.post('/v1/oauth/token').auth(client_id, client_secret).type('form').send(body).expect(200);
    expect(res.body.token_type).toBe('Bearer');
  });

  describe('errors in the order of the security schemes of the OpenAPI description', () => {
    it('401 Invalid credentials for a wrong secret, an unknown client, or missing credentials', async () => {
      const { code } = await authorize(f);
      for (const body of [
        codeExchange(f, code, { client_secret: 'cs_wrong' }),
        codeExchange(f, code, { client_id: 'unknown-client' }),
        { code, redirect_uri: REDIRECT_URI, state: 'xyz-state' },
      ]) {
        const res = await t.http.post('/v1/oauth/token').send(body).expect(401);
        expect(res.body).toEqual(oauthError('Invalid credentials', 'invalid_client'));
        expect(res.headers['cache-control']).toBe('no-store');
      }
      // Credentials come first: a wrong secret did not consume the code.
      await t.http.post('/v1/oauth/token').send(codeExchange(f, code)).expect(200);
    });

    it('401 Invalid credentials with WWW-Authenticate for wrong HTTP Basic credentials', async () => {
      const res = await t.http
        .post('/v1/oauth/token')
        .auth(f.clientId, 'cs_wrong')
        .type('form')
        .send({ code: 'x' })
        .expect(401);
      expect(res.body).toEqual(oauthError('Invalid credentials', 'invalid_client'));
      expect(res.headers['www-authenticate']).toMatch(/^Basic/);
    });

    it('401 Invalid credentials when the app is inactive', async () => {
      const other = await oauthFixture(t);
      const { code } = await authorize(other);
      await submit(other.agent, '/web/apps', `/web/apps/${other.appId}/deactivate`, {}).then((r) =>
        expect(r.status).toBe(303),
      );
      const res = await t.http.post('/v1/oauth/token').send(codeExchange(other, code)).expect(401);
      expect(res.body).toEqual(oauthError('Invalid credentials', 'invalid_client'));
    });

    it('400 Invalid or expired code for an unknown or missing code', async () => {
      for (const code of ['not-a-code', '']) {
        const res = await t.http.post('/v1/oauth/token').send(codeExchange(f, code)).expect(400);
        expect(res.body).toEqual(oauthError('Invalid or expired code', 'invalid_grant'));
      }
    });

    it('400 client_id mismatch for a code issued to another app', async () => {
      const { code } = await authorize(f);
      const second = await registerApp(f.agent, [REDIRECT_URI], 'Second app');
      const res = await t.http
        .post('/v1/oauth/token')
        .send(codeExchange(f, code, { client_id: second.clientId, client_secret: second.clientSecret }))
        .expect(400);
      expect(res.body).toEqual(oauthError('client_id mismatch', 'invalid_grant'));
    });

    it('400 redirect_uri mismatch for another redirect_uri, even one registered for the app', async () => {
      const g = await oauthFixture(t, [REDIRECT_URI, 'https://partner.example.com/other']);
      const { code } = await authorize(g);
      for (const redirect_uri of ['https://partner.example.com/other', 'https://evil.example.com/callback']) {
        const res = await t.http
          .post('/v1/oauth/token')
          .send(codeExchange(g, code, { redirect_uri }))
          .expect(400);
        expect(res.body).toEqual(oauthError('redirect_uri mismatch', 'invalid_grant'));
      }
    });

    it('400 Invalid state when state differs from the callback or is missing', async () => {
      const { code } = await authorize(f);
      const wrong = await t.http
        .post('/v1/oauth/token')
        .send(codeExchange(f, code, { state: 'other' }))
        .expect(400);
      expect(wrong.body).toEqual(oauthError('Invalid state', 'invalid_grant'));
      const { state: _omit, ...withoutState } = codeExchange(f, code);
      const missing = await t.http.post('/v1/oauth/token').send(withoutState).expect(400);
      expect(missing.body).toEqual(oauthError('Invalid state', 'invalid_grant'));
    });

    it('no code is issued with neither state nor PKCE: the consent screen refuses it, since no exchange could match', async () => {
      const page = await f.agent
        .get('/web/oauth/authorize')
        .query({ client_id: f.clientId, redirect_uri: REDIRECT_URI, scope: 'user.read' })
        .expect(400);
      expect(page.text).toContain('The state parameter is required without a PKCE code_challenge.');
    });

    it('400 Unsupported grant type for another grant_type', async () => {
      const res = await t.http
        .post('/v1/oauth/token')
        .send({ grant_type: 'password', client_id: f.clientId, client_secret: f.clientSecret })
        .expect(400);
      expect(res.body).toEqual(oauthError('Unsupported grant type', 'unsupported_grant_type'));
    });

    it('422 Validation failed. for fields of the wrong form or repeated, with the RFC 6749 invalid_request; an unreadable body too', async () => {
      const res = await t.http.post('/v1/oauth/token').send({ code: 123, state: 1 }).expect(422);
      expect(res.body).toEqual({
        status: 'error',
        message: 'Validation failed.',
        errors: { code: ['code must be a string.'], state: ['state must be a string.'] },
        error: 'invalid_request',
        error_description: 'code must be a string. state must be a string.',
      });
      expect(res.headers['cache-control']).toBe('no-store');
      const repeated = await t.http
        .post('/v1/oauth/token')
        .type('form')
        .send(`client_id=${f.clientId}&client_id=${f.clientId}&client_secret=${f.clientSecret}&code=x`)
        .expect(422);
      expect(repeated.body).toMatchObject({
        error: 'invalid_request',
        errors: { client_id: ['client_id must be a string.'] },
      });
      const malformed = await t.http
        .post('/v1/oauth/token')
        .set('Content-Type', 'application/json')
        .send('{"code":')
        .expect(400);
      expect(malformed.body).toEqual({
        status: 'error',
        message: 'Malformed JSON body.',
        error: 'invalid_request',
        error_description: 'Malformed JSON body.',
      });
      const text = await t.http.post('/v1/oauth/token').set('Content-Type', 'text/plain').send('code=x').expect(415);
      expect(text.body).toMatchObject({ error: 'invalid_request', error_description: text.body.message });
      // Answered before the handler runs, and still not to be stored, as every answer of these endpoints.
      const revokeText = await t.http.post('/v1/oauth/revoke').set('Content-Type', 'text/plain').send('x').expect(415);
      for (const res of [malformed, text, revokeText]) {
        expect(res.headers['cache-control']).toBe('no-store');
        expect(res.headers.pragma).toBe('no-cache');
      }
    });
  });

  it('a code is single use: presenting it again fails and revokes the tokens it produced', async () => {
    const { code } = await authorize(f);
    const first = await t.http.post('/v1/oauth/token').send(codeExchange(f, code)).expect(200);
    const auth = { Authorization: `Bearer ${first.body.access_token}` };
    await t.http.get('/v1/user').set(auth).expect(200);

    const again = await t.http.post('/v1/oauth/token').send(codeExchange(f, code)).expect(400);
    expect(again.body).toEqual(oauthError('Invalid or expired code', 'invalid_grant'));
    const revoked = await t.http.get('/v1/user').set(auth).expect(401);
    expect(revoked.body).toEqual({ status: 'error', message: 'Invalid token' });
    const refresh = await t.http
      .post('/v1/oauth/token')
      .send({
        grant_type: 'refresh_token',
        refresh_token: first.body.refresh_token,
        client_id: f.clientId,
        client_secret: f.clientSecret,
      })
      .expect(400);
    expect(refresh.body.error).toBe('invalid_grant');
  });

  it('a code expires after 10 minutes (controllable clock)', async () => {
    const { code: fresh } = await authorize(f);
    // Ten seconds short of the limit: the test clock runs on from real time, and a loaded machine is slow.
    t.clock.advance(9 * 60 * 1000 + 50 * 1000);
    await t.http.post('/v1/oauth/token').send(codeExchange(f, fresh)).expect(200);

    const { code: stale } = await authorize(f);
    t.clock.advance(10 * 60 * 1000);
    const res = await t.http.post('/v1/oauth/token').send(codeExchange(f, stale)).expect(400);
    expect(res.body).toEqual(oauthError('Invalid or expired code', 'invalid_grant'));
  });

  it('access tokens stop working after 30 days', async () => {
    const { code } = await authorize(f);
    const res = await t.http.post('/v1/oauth/token').send(codeExchange(f, code)).expect(200);
    const auth = { Authorization: `Bearer ${res.body.access_token}` };
    t.clock.advance(29 * 24 * 3600 * 1000);
    await t.http.get('/v1/user').set(auth).expect(200);
    t.clock.advance(24 * 3600 * 1000 + 1000);
    const expired = await t.http.get('/v1/user').set(auth).expect(401);
    expect(expired.body).toEqual({ status: 'error', message: 'Invalid token' });
  });

  describe('PKCE (S256)', () => {
    it('exchanges with the right verifier', async () => {
      const { verifier, challenge } = pkcePair();
      const { code } = await authorize(f, { challenge });
      await t.http
        .post('/v1/oauth/token')
        .send(codeExchange(f, code, { code_verifier: verifier }))
        .expect(200);
    });

    it('refuses a wrong or missing verifier with Invalid or expired code, and the code survives', async () => {
      const { verifier, challenge } = pkcePair();
      const { code } = await authorize(f, { challenge });
      for (const extra of [{ code_verifier: pkcePair().verifier }, {}] as Record<string, string>[]) {
        const res = await t.http
          .post('/v1/oauth/token')
          .send(codeExchange(f, code, extra))
          .expect(400);
        expect(res.body).toEqual(oauthError('Invalid or expired code', 'invalid_grant'));
      }
      await t.http
        .post('/v1/oauth/token')
        .send(codeExchange(f, code, { code_verifier: verifier }))
        .expect(200);
    });

    it('exchanges a code issued without state with the verifier alone (standard clients)', async () => {
      const { verifier, challenge } = pkcePair();
      const { code, state } = await authorize(f, { challenge, state: null });
      expect(state).toBeNull();
      const { state: _omit, ...withoutState } = codeExchange(f, code, { code_verifier: verifier });
      await t.http.post('/v1/oauth/token').send(withoutState).expect(200);
    });

    it('refuses a verifier for a code issued without PKCE', async () => {
      const { code } = await authorize(f);
      const res = await t.http
        .post('/v1/oauth/token')
        .send(codeExchange(f, code, { code_verifier: pkcePair().verifier }))
        .expect(400);
      expect(res.body.message).toBe('Invalid or expired code');
    });
  });

  describe('refresh tokens', () => {
    const refresh = (refresh_token: string, fixture = f) =>
      t.http.post('/v1/oauth/token').send({
        grant_type: 'refresh_token',
        refresh_token,
        client_id: fixture.clientId,
        client_secret: fixture.clientSecret,
      });

    it('rotates: a new pair with the same permissions, and reuse of the old one revokes the whole grant', async () => {
      const { code } = await authorize(f, { scope: 'user.read' });
      const first = await t.http.post('/v1/oauth/token').send(codeExchange(f, code)).expect(200);
      const second = await refresh(first.body.refresh_token).expect(200);
      expect(second.headers['cache-control']).toBe('no-store');
      expect(second.body.permissions).toEqual(['user.read']);
      expect(second.body.access_token).not.toBe(first.body.access_token);
      expect(second.body.refresh_token).not.toBe(first.body.refresh_token);
      await t.http.get('/v1/user').set('Authorization', `Bearer ${second.body.access_token}`).expect(200);

      const reuse = await refresh(first.body.refresh_token).expect(400);
      expect(reuse.body).toEqual(oauthError('Invalid refresh token', 'invalid_grant'));
      await t.http.get('/v1/user').set('Authorization', `Bearer ${second.body.access_token}`).expect(401);
      await refresh(second.body.refresh_token).expect(400);
    });

    it('refuses an unknown refresh token, one of another client, and wrong client credentials', async () => {
      const { code } = await authorize(f);
      const tokens = await t.http.post('/v1/oauth/token').send(codeExchange(f, code)).expect(200);
      expect((await refresh('rt_unknown').expect(400)).body.error).toBe('invalid_grant');
      const other = await registerApp(f.agent, [REDIRECT_URI], 'Other app');
      const foreign = await refresh(tokens.body.refresh_token, {
        ...f,
        clientId: other.clientId,
        clientSecret: other.clientSecret,
      }).expect(400);
      expect(foreign.body.error).toBe('invalid_grant');
      const badClient = await refresh(tokens.body.refresh_token, { ...f, clientSecret: 'cs_wrong' }).expect(401);
      expect(badClient.body).toEqual(oauthError('Invalid credentials', 'invalid_client'));
      // None of those spent it.
      await refresh(tokens.body.refresh_token).expect(200);
    });
  });

  describe('POST /v1/oauth/revoke (RFC 7009)', () => {
    it('revokes an access token; unknown tokens answer 200 too', async () => {
      const { code } = await authorize(f);
      const tokens = await t.http.post('/v1/oauth/token').send(codeExchange(f, code)).expect(200);
      const auth = { Authorization: `Bearer ${tokens.body.access_token}` };
      await t.http.get('/v1/user').set(auth).expect(200);
      await t.http
        .post('/v1/oauth/revoke')
        .type('form')
        .send({ token: tokens.body.access_token, client_id: f.clientId, client_secret: f.clientSecret })
        .expect(200);
      await t.http.get('/v1/user').set(auth).expect(401);
      await t.http
        .post('/v1/oauth/revoke')
        .send({ token: 'at_nothing', client_id: f.clientId, client_secret: f.clientSecret })
        .expect(200);
    });

    it('revoking a refresh token ends the grant', async () => {
      const { code } = await authorize(f);
      const tokens = await t.http.post('/v1/oauth/token').send(codeExchange(f, code)).expect(200);
      await t.http
        .post('/v1/oauth/revoke')
        .auth(f.clientId, f.clientSecret)
        .send({ token: tokens.body.refresh_token })
        .expect(200);
      await t.http.get('/v1/user').set('Authorization', `Bearer ${tokens.body.access_token}`).expect(401);
    });

    it('422 for a token that is not a string, with the RFC 7009 invalid_request, as documented', async () => {
      const res = await t.http
        .post('/v1/oauth/revoke')
        .send({ token: 123, client_id: f.clientId, client_secret: f.clientSecret })
        .expect(422);
      expect(res.body).toEqual({
        status: 'error',
        message: 'Validation failed.',
        errors: { token: ['token must be a string.'] },
        error: 'invalid_request',
        error_description: 'token must be a string.',
      });
      const doc = (await t.http.get('/docs-json').expect(200)).body;
      expect(doc.paths['/v1/oauth/revoke'].post.responses['422'].content['application/json'].example.error).toBe(
        'invalid_request',
      );
    });

    it('401 Invalid credentials for a wrong client secret, and the token keeps working', async () => {
      const { code } = await authorize(f);
      const tokens = await t.http.post('/v1/oauth/token').send(codeExchange(f, code)).expect(200);
      const res = await t.http
        .post('/v1/oauth/revoke')
        .send({ token: tokens.body.access_token, client_id: f.clientId, client_secret: 'cs_wrong' })
        .expect(401);
      expect(res.body).toEqual(oauthError('Invalid credentials', 'invalid_client'));
      await t.http.get('/v1/user').set('Authorization', `Bearer ${tokens.body.access_token}`).expect(200);
    });
  });

  describe('the OpenAPI operations', () => {
    let doc: any;
    const operation = (path: string) => doc.paths[path].post;
    const bodyExamples = (path: string, type: string) =>
      Object.values<any>(operation(path).requestBody.content[type].examples).map((e) => e.value);

    beforeAll(async () => {
      doc = (await t.http.get('/docs-json').expect(200)).body;
    });

    it.each(['/v1/oauth/token', '/v1/oauth/revoke'])(
      '%s: the authorization header is optional HTTP Basic, so "Try it out" sends the body alone',
      (path) => {
        const headers = operation(path).parameters.filter((p: any) => p.in === 'header');
        expect(headers).toEqual([
          expect.objectContaining({
            name: 'authorization',
            required: false,
            description: expect.stringMatching(/Basic/),
          }),
        ]);
        expect(headers[0].example).toBeUndefined();
        for (const type of ['application/json', 'application/x-www-form-urlencoded'])
          expect(bodyExamples(path, type).length).toBeGreaterThan(0);
      },
    );

    it('the body examples run as they stand: the credentials are checked, nothing is a validation error', async () => {
      for (const path of ['/v1/oauth/token', '/v1/oauth/revoke'])
        for (const type of ['application/json', 'application/x-www-form-urlencoded'])
          for (const example of bodyExamples(path, type)) {
            const res = await t.http
              .post(path)
              .type(type === 'application/json' ? 'json' : 'form')
              .send(example);
            expect(`${path} ${res.status} ${res.body.error}`).toBe(`${path} 401 invalid_client`);
          }
    });

    it("the body examples answer 200 once they hold a real app's credentials, code and tokens", async () => {
      const [exchange, rotation] = bodyExamples('/v1/oauth/token', 'application/json');
      const [revocation] = bodyExamples('/v1/oauth/revoke', 'application/json');
      const g = await oauthFixture(t, [exchange.redirect_uri]);
      const credentials = { client_id: g.clientId, client_secret: g.clientSecret };
      const { code } = await authorize(g, { redirectUri: exchange.redirect_uri, state: exchange.state });
      const tokens = await t.http
        .post('/v1/oauth/token')
        .send({ ...exchange, ...credentials, code })
        .expect(200);
      const rotated = await t.http
        .post('/v1/oauth/token')
        .type('form')
        .send({ ...rotation, ...credentials, refresh_token: tokens.body.refresh_token })
        .expect(200);
      await t.http
        .post('/v1/oauth/revoke')
        .send({ ...revocation, ...credentials, token: rotated.body.refresh_token })
        .expect(200);
      await t.http.get('/v1/user').set('Authorization', `Bearer ${rotated.body.access_token}`).expect(401);
    });
  });

  it('a rotated client secret replaces the old one at once', async () => {
    const g = await oauthFixture(t);
    const { code } = await authorize(g);
    // Post/redirect/get: the list shows the new secret once.
    const rotated = await follow(g.agent, await submit(g.agent, '/web/apps', `/web/apps/${g.appId}/rotate-secret`, {}));
    const newSecret = /data-testid="client-secret">([^<]+)</.exec(rotated.text)![1];
    expect(newSecret).not.toBe(g.clientSecret);
    await t.http.post('/v1/oauth/token').send(codeExchange(g, code)).expect(401);
    await t.http
      .post('/v1/oauth/token')
      .send(codeExchange({ ...g, clientSecret: newSecret }, code))
      .expect(200);
  });
});
