import { createTestApp, TestApp } from '../../utils/test-app';
import { authorize, codeExchange, oauthFixture, pkcePair } from './support/oauth';
import { follow, signUp, submit, testId, webAgent } from './support/web';

const IDENTITY_TABLES = [
  'sellers',
  'stores',
  'api_keys',
  'oauth_apps',
  'oauth_grants',
  'oauth_authorization_codes',
  'oauth_tokens',
  'web_sessions',
  'password_reset_tokens',
];

describe('no secret is stored in clear', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('after a full flow, no table of identity holds a password, key, client secret, code or token', async () => {
    const password = 'a very particular password 42';
    const agent = webAgent(t);
    await signUp(agent, { password });
    const posted = await submit(agent, '/web/settings/api', '/web/settings/api/keys', {
      name: 'k',
      scopes: ['user.read'],
    });
    // Kept for the page after the POST (post/redirect/get), the new key is sealed in the session.
    const sessionsBeforeShown = JSON.stringify(await t.dataSource.query(`SELECT sess FROM web_sessions`));
    expect(sessionsBeforeShown).toContain('api-key-created');
    const apiKey = testId((await follow(agent, posted)).text, 'api-key-token');
    expect(sessionsBeforeShown).not.toContain(apiKey);
    expect(sessionsBeforeShown).not.toContain(apiKey.slice(10));
    const f = await oauthFixture(t);
    const { verifier, challenge } = pkcePair();
    const { code } = await authorize(f, { challenge });
    const tokens = await t.http
      .post('/v1/oauth/token')
      .send(codeExchange(f, code, { code_verifier: verifier }))
      .expect(200);
    const rotated = await t.http
      .post('/v1/oauth/token')
      .send({
        grant_type: 'refresh_token',
        refresh_token: tokens.body.refresh_token,
        client_id: f.clientId,
        client_secret: f.clientSecret,
      })
      .expect(200);
    await t.http.get('/v1/user').set('Authorization', `Bearer ${apiKey}`).expect(200);
    await t.http.get('/v1/user').set('Authorization', `Bearer ${rotated.body.access_token}`).expect(200);

    const secrets = {
      password,
      apiKey,
      apiKeyBody: apiKey.slice(10),
      clientSecret: f.clientSecret,
      code,
      codeVerifier: verifier,
      accessToken: tokens.body.access_token,
      refreshToken: tokens.body.refresh_token,
      rotatedAccess: rotated.body.access_token,
      rotatedRefresh: rotated.body.refresh_token,
    };
    let rowsSeen = 0;
    for (const table of IDENTITY_TABLES) {
      const rows: unknown[] = await t.dataSource.query(`SELECT * FROM ${table}`);
      rowsSeen += rows.length;
      const dump = JSON.stringify(rows);
      for (const [name, secret] of Object.entries(secrets)) {
        if (dump.includes(secret)) throw new Error(`${name} found in clear in ${table}`);
      }
    }
    expect(rowsSeen).toBeGreaterThan(10);
    const [seller] = await t.dataSource.query(`SELECT password_hash FROM sellers ORDER BY id LIMIT 1`);
    expect(seller.password_hash).toMatch(/^\$argon2id\$/);
  });
});
