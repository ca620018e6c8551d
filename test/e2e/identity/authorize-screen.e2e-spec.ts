import { createTestApp, TestApp } from '../../utils/test-app';
import { consentForm, oauthFixture, OAuthFixture, REDIRECT_URI } from './support/oauth';
import { csrfFrom, signUp, submit, webAgent } from './support/web';

describe('GET|POST /web/oauth/authorize', () => {
  let t: TestApp;
  let f: OAuthFixture;
  const query = (extra: Record<string, string> = {}) => ({
    client_id: f.clientId,
    redirect_uri: REDIRECT_URI,
    state: 's1',
    scope: 'user.read orders.read',
    ...extra,
  });

  beforeAll(async () => {
    t = await createTestApp();
    f = await oauthFixture(t);
  });
  afterAll(() => t.close());

  it('names the app and lists the requested scopes as checked checkboxes with both buttons', async () => {
    const res = await f.agent.get('/web/oauth/authorize').query(query()).expect(200);
    expect(res.text).toContain('Partner app');
    expect(res.text).toMatch(/<input type="checkbox" name="scopes" value="user.read" checked>/);
    expect(res.text).toMatch(/<input type="checkbox" name="scopes" value="orders.read" checked>/);
    expect(res.text).toContain('name="decision" value="approve"');
    expect(res.text).toContain('name="decision" value="deny"');
  });

  it.each([
    ['an unknown client_id', { client_id: 'nope' }],
    ['a redirect_uri that is not registered', { redirect_uri: 'https://evil.example.com/callback' }],
    ['a redirect_uri that only starts like a registered one', { redirect_uri: `${REDIRECT_URI}/../x` }],
    ['no redirect_uri', { redirect_uri: '' }],
  ])('answers %s with a 400 error page and no redirect', async (_label, extra) => {
    const res = await f.agent.get('/web/oauth/authorize').query(query(extra)).expect(400);
    expect(res.headers.location).toBeUndefined();
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.text).toContain('data-testid="error-message"');
  });

  it('answers an inactive app with a 400 error page, even for a logged-out browser', async () => {
    const g = await oauthFixture(t);
    expect((await submit(g.agent, '/web/apps', `/web/apps/${g.appId}/deactivate`, {})).status).toBe(303);
    await webAgent(t)
      .get('/web/oauth/authorize')
      .query({ ...query(), client_id: g.clientId })
      .expect(400);
    expect((await submit(g.agent, '/web/apps', `/web/apps/${g.appId}/activate`, {})).status).toBe(303);
    await g.agent
      .get('/web/oauth/authorize')
      .query({ ...query(), client_id: g.clientId })
      .expect(200);
  });

  it.each([
    ['a missing scope', { scope: '' }],
    ['an unknown scope', { scope: 'user.read admin.all' }],
    ['a plain PKCE method', { code_challenge: 'x'.repeat(43), code_challenge_method: 'plain' }],
    ['U+0000 in the state', { state: 'a\u0000b' }],
    ['U+0000 in the scope', { scope: 'user.read\u0000' }],
    ['U+0000 in the code_challenge', { code_challenge: `a\u0000${'b'.repeat(41)}`, code_challenge_method: 'S256' }],
    ['neither a state nor a PKCE challenge (its code could never be exchanged)', { state: '' }],
  ])('answers %s with a 400 error page', async (_label, extra) => {
    const res = await f.agent.get('/web/oauth/authorize').query(query(extra)).expect(400);
    expect(res.headers.location).toBeUndefined();
    expect(res.text).toContain('data-testid="error-message"');
  });

  it('answers a client_id that cannot exist (U+0000) with the 400 page, logged in or not, by GET and by POST', async () => {
    for (const agent of [f.agent, webAgent(t)]) {
      const res = await agent
        .get('/web/oauth/authorize')
        .query(query({ client_id: '\u0000' }))
        .expect(400);
      expect(res.text).toContain('The client_id parameter is not valid.');
    }
    const page = await f.agent.get('/web/oauth/authorize').query(query()).expect(200);
    const res = await f.agent
      .post('/web/oauth/authorize')
      .type('form')
      .send({ ...consentForm(page.text), client_id: 'a\u0000b', _csrf: csrfFrom(page.text), decision: 'approve' })
      .expect(400);
    expect(res.headers.location).toBeUndefined();
  });

  it('takes a request without state when it carries a PKCE challenge', async () => {
    await f.agent
      .get('/web/oauth/authorize')
      .query(
        query({
          state: '',
          code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
          code_challenge_method: 'S256',
        }),
      )
      .expect(200);
  });

  it('sends a logged-out browser to the login page (303) and back to the screen after login', async () => {
    const agent = webAgent(t);
    const first = await agent.get('/web/oauth/authorize').query(query()).expect(303);
    const login = new URL(first.headers.location, 'http://x');
    expect(login.pathname).toBe('/web/login');
    const next = login.searchParams.get('next')!;
    expect(next.startsWith('/web/oauth/authorize?')).toBe(true);

    const email = `returning-${Date.now()}@example.com`;
    await submit(webAgent(t), '/web/signup', '/web/signup', {
      name: 'B',
      email,
      password: 'password123',
      store_name: 'B store',
    });
    const page = await agent.get(first.headers.location).expect(200);
    const res = await agent
      .post('/web/login')
      .type('form')
      .send({ _csrf: csrfFrom(page.text), email, password: 'password123', next })
      .expect(303);
    expect(res.headers.location).toBe(next);
    await agent.get(res.headers.location).expect(200);
  });

  it('deny redirects with error=access_denied and the state', async () => {
    const page = await f.agent.get('/web/oauth/authorize').query(query()).expect(200);
    const res = await f.agent
      .post('/web/oauth/authorize')
      .type('form')
      .send({ ...consentForm(page.text), decision: 'deny' })
      .expect(302);
    const location = new URL(res.headers.location);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
    expect(Object.fromEntries(location.searchParams)).toEqual({ error: 'access_denied', state: 's1' });
  });

  it('approve redirects with a code and the state; scopes it did not request are ignored', async () => {
    const page = await f.agent.get('/web/oauth/authorize').query(query()).expect(200);
    const res = await f.agent
      .post('/web/oauth/authorize')
      .type('form')
      .send({ ...consentForm(page.text), decision: 'approve', scopes: ['user.read', 'webhooks.write'] })
      .expect(302);
    const location = new URL(res.headers.location);
    expect(location.searchParams.get('state')).toBe('s1');
    const grants = await t.dataSource.query(`SELECT scopes FROM oauth_grants ORDER BY id DESC LIMIT 1`);
    expect(grants[0].scopes).toEqual(['user.read']);
  });

  describe('the consent form cannot ask for more than the authorization request did', () => {
    const codes = async () =>
      (await t.dataSource.query(`SELECT count(*)::int AS n FROM oauth_authorization_codes`))[0].n as number;

    it('refuses a form whose hidden scope was widened (400 page, no redirect, no code)', async () => {
      const page = await f.agent
        .get('/web/oauth/authorize')
        .query(query({ scope: 'orders.read' }))
        .expect(200);
      const form = consentForm(page.text);
      expect(form.scope).toBe('orders.read');
      const before = await codes();
      const res = await f.agent
        .post('/web/oauth/authorize')
        .type('form')
        .send({
          ...form,
          scope: 'orders.read webhooks.write',
          decision: 'approve',
          scopes: ['orders.read', 'webhooks.write'],
        })
        .expect(400);
      expect(res.headers.location).toBeUndefined();
      expect(res.text).toContain('data-testid="error-message"');
      expect(await codes()).toBe(before);

      // The page's own form still works, and grants only what was asked for.
      const approved = await f.agent
        .post('/web/oauth/authorize')
        .type('form')
        .send({ ...form, decision: 'approve', scopes: ['orders.read', 'webhooks.write'] })
        .expect(302);
      expect(new URL(approved.headers.location).searchParams.get('code')).toBeTruthy();
      const grants = await t.dataSource.query(`SELECT scopes FROM oauth_grants ORDER BY id DESC LIMIT 1`);
      expect(grants[0].scopes).toEqual(['orders.read']);
    });

    it.each([
      ['a changed state', { state: 'other' }],
      ['a PKCE challenge added', { code_challenge: 'x'.repeat(43), code_challenge_method: 'S256' }],
      ['no signature', { request_signature: '' }],
    ])('refuses a form with %s, approve or deny', async (_label, change) => {
      const page = await f.agent.get('/web/oauth/authorize').query(query()).expect(200);
      const before = await codes();
      for (const decision of ['approve', 'deny']) {
        const res = await f.agent
          .post('/web/oauth/authorize')
          .type('form')
          .send({ ...consentForm(page.text), ...change, decision, scopes: ['user.read'] })
          .expect(400);
        expect(res.headers.location).toBeUndefined();
      }
      expect(await codes()).toBe(before);
    });

    it('answers each page once: the same form posted again issues no second code', async () => {
      const page = await f.agent.get('/web/oauth/authorize').query(query()).expect(200);
      const second = await f.agent.get('/web/oauth/authorize').query(query()).expect(200);
      const form = { ...consentForm(page.text), decision: 'approve', scopes: ['user.read'] };
      await f.agent.post('/web/oauth/authorize').type('form').send(form).expect(302);
      const before = await codes();
      await f.agent.post('/web/oauth/authorize').type('form').send(form).expect(400);
      expect(await codes()).toBe(before);
      // Another page of the same session (another tab) is still answered once.
      await f.agent
        .post('/web/oauth/authorize')
        .type('form')
        .send({ ...consentForm(second.text), decision: 'deny' })
        .expect(302);
    });

    it("refuses another session's form", async () => {
      const page = await f.agent.get('/web/oauth/authorize').query(query()).expect(200);
      const other = webAgent(t);
      await signUp(other);
      const otherPage = await other.get('/web/oauth/authorize').query(query()).expect(200);
      await other
        .post('/web/oauth/authorize')
        .type('form')
        .send({
          ...consentForm(page.text),
          _csrf: consentForm(otherPage.text)._csrf,
          decision: 'approve',
          scopes: ['user.read'],
        })
        .expect(400);
    });
  });

  it('refuses an approval without the CSRF token (403) and issues no code', async () => {
    const before = await t.dataSource.query(`SELECT count(*)::int AS n FROM oauth_authorization_codes`);
    const res = await f.agent
      .post('/web/oauth/authorize')
      .type('form')
      .send({ ...query(), _csrf: 'forged', decision: 'approve', scopes: 'user.read' })
      .expect(403);
    expect(res.headers.location).toBeUndefined();
    const after = await t.dataSource.query(`SELECT count(*)::int AS n FROM oauth_authorization_codes`);
    expect(after[0].n).toBe(before[0].n);
  });
});
