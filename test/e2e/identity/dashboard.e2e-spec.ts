import { createTestApp, TestApp } from '../../utils/test-app';
import { csrfFrom, follow, registerApp, signUp, submit, submitAndFollow, testId, webAgent } from './support/web';

describe('seller dashboard', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('signs up, lands logged in on the home page, with a hardened session cookie', async () => {
    const agent = webAgent(t);
    const signupPage = await agent.get('/web/signup').expect(200);
    expect(signupPage.headers['content-type']).toMatch(/text\/html/);
    expect(signupPage.text).toContain('name="viewport"');
    const res = await agent
      .post('/web/signup')
      .type('form')
      .send({
        _csrf: csrfFrom(signupPage.text),
        name: 'Ana',
        email: 'ana@example.com',
        password: 'secret123',
        store_name: 'Ana Books',
      })
      .expect(303);
    expect(res.headers.location).toBe('/web/');
    const cookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []).join(';');
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Secure/i);
    const home = await agent.get('/web/').expect(200);
    expect(home.text).toContain('Ana Books');
    expect(home.text).toContain('MZN');
    const stored = await t.dataSource.query(`SELECT count(*)::int AS n FROM web_sessions`);
    expect(stored[0].n).toBeGreaterThan(0);
  });

  it('re-renders the sign-up form with field errors (422) and creates nothing', async () => {
    const agent = webAgent(t);
    const res = await submit(agent, '/web/signup', '/web/signup', {
      name: '',
      email: 'bad',
      password: 'short',
      store_name: '',
    });
    expect(res.status).toBe(422);
    expect(res.text).toContain('Use at least 8 characters.');
    const dup = await submit(agent, '/web/signup', '/web/signup', {
      name: 'X',
      email: 'ana@example.com',
      password: 'password123',
      store_name: 'X',
    });
    expect(dup.status).toBe(422);
    expect(dup.text).toContain('already exists');
  });

  it('sends logged-out visitors of a page to the login page with next', async () => {
    const res = await webAgent(t).get('/web/settings/api').expect(303);
    expect(res.headers.location).toBe('/web/login?next=%2Fweb%2Fsettings%2Fapi');
  });

  it('denies every page without a session, before its handler runs (303 to the login page)', async () => {
    for (const path of ['/web/', '/web/apps', '/web/settings/emails', '/web/orders?status=paid', '/web/webhooks/1']) {
      const res = await webAgent(t).get(path).expect(303);
      expect(res.headers.location).toBe(`/web/login?next=${encodeURIComponent(path)}`);
    }
    // A form posted with a valid CSRF token but no seller in the session changes nothing.
    const agent = webAgent(t);
    const login = await agent.get('/web/login').expect(200);
    const res = await agent
      .post('/web/settings/emails')
      .type('form')
      .send({ _csrf: csrfFrom(login.text), email_customers: 'on' })
      .expect(303);
    expect(res.headers.location).toBe('/web/login?next=%2Fweb%2Fsettings%2Femails');
  });

  it('logs in, honours next only for a web path, and logs out', async () => {
    const seller = await signUp(webAgent(t));
    for (const [next, expected] of [
      ['/web/settings/api', '/web/settings/api'],
      ['https://evil.example.com/', '/web/'],
      ['//evil.example.com/', '/web/'],
      ['/v1/user', '/web/'],
    ]) {
      const agent = webAgent(t);
      const page = await agent.get('/web/login').query({ next }).expect(200);
      const res = await agent
        .post('/web/login')
        .type('form')
        .send({
          _csrf: csrfFrom(page.text),
          email: seller.email,
          password: seller.password,
          next: /name="next" value="([^"]*)"/.exec(page.text)![1],
        })
        .expect(303);
      expect(res.headers.location).toBe(expected);
    }
    const agent = webAgent(t);
    await submit(agent, '/web/login', '/web/login', { email: seller.email, password: seller.password });
    await agent.get('/web/settings/api').expect(200);
    const out = await submit(agent, '/web/settings/api', '/web/logout', {});
    expect(out.status).toBe(303);
    await agent.get('/web/settings/api').expect(303);
  });

  it('rejects a wrong password (401 page) and throttles guessing per email and IP (429)', async () => {
    const seller = await signUp(webAgent(t));
    const agent = webAgent(t);
    for (let i = 0; i < 5; i += 1) {
      const res = await submit(agent, '/web/login', '/web/login', { email: seller.email, password: `wrong-${i}` });
      expect(res.status).toBe(401);
      expect(res.text).toContain('Wrong email or password.');
    }
    const blocked = await submit(agent, '/web/login', '/web/login', { email: seller.email, password: seller.password });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    await agent.get('/web/settings/api').expect(303);
  });

  describe('Settings → API keys', () => {
    it('creates a key shown once, lists it without the token, and the key works with its scopes', async () => {
      const agent = webAgent(t);
      await signUp(agent);
      const posted = await submit(agent, '/web/settings/api', '/web/settings/api/keys', {
        name: 'Zapier',
        scopes: ['user.read', 'orders.read'],
      });
      // Post/redirect/get: the list shows the token once; reloading it makes no second key.
      expect(posted.status).toBe(303);
      expect(posted.headers.location).toBe('/web/settings/api');
      const res = await follow(agent, posted);
      const token = testId(res.text, 'api-key-token');
      expect(token).toMatch(/^sk_[0-9A-Za-z]{40}$/);

      const list = await agent.get('/web/settings/api').expect(200);
      expect(list.text).not.toContain(token);
      expect(list.text).not.toContain('data-testid="api-key-token"');
      expect(list.text).toContain('Zapier');
      expect(list.text).toContain('<code class="scope">user.read</code> <code class="scope">orders.read</code>');
      expect(list.text).toContain(`${token.slice(0, 10)}…`);
      expect(testId(list.text, 'api-key-last-used')).toBe('never');

      await t.http.get('/v1/user').set('Authorization', `Bearer ${token}`).expect(200);
      // last used is recorded in the background, without a write on every request.
      await waitFor(async () => testId((await agent.get('/web/settings/api')).text, 'api-key-last-used') !== 'never');
      const single = await t.http.get('/v1/scopes').set('Authorization', `Bearer ${token}`).expect(200);
      expect(single.body.granted_scopes).toEqual(['user.read', 'orders.read']);
    });

    it('records last used at most once a minute per key', async () => {
      const agent = webAgent(t);
      await signUp(agent);
      const token = testId(
        (
          await submitAndFollow(agent, '/web/settings/api', '/web/settings/api/keys', {
            name: 'k',
            scopes: 'user.read',
          })
        ).text,
        'api-key-token',
      );
      await t.http.get('/v1/user').set('Authorization', `Bearer ${token}`).expect(200);
      const first = await waitFor(async () => {
        const rows = await t.dataSource.query(`SELECT last_used_at FROM api_keys WHERE prefix = $1`, [
          token.slice(0, 10),
        ]);
        return rows[0].last_used_at;
      });
      await t.http.get('/v1/user').set('Authorization', `Bearer ${token}`).expect(200);
      await new Promise((r) => setTimeout(r, 100));
      const rows = await t.dataSource.query(`SELECT last_used_at FROM api_keys WHERE prefix = $1`, [
        token.slice(0, 10),
      ]);
      expect(rows[0].last_used_at).toEqual(first);
    });

    it('rejects a key without a name or scopes, or with an unknown scope: back to the list with the message by its field', async () => {
      const agent = webAgent(t);
      await signUp(agent);
      const refused = async (form: Record<string, string>, field: string) => {
        const page = await submitAndFollow(agent, '/web/settings/api', '/web/settings/api/keys', form);
        expect(page.text).not.toContain('data-testid="api-key-token"');
        return testId(page.text, `error-${field}`);
      };
      expect(await refused({ name: 'x' }, 'scopes')).toBe('Choose at least one scope.');
      expect(await refused({ name: '', scopes: 'user.read' }, 'name')).toBe('Name is required.');
      expect(await refused({ name: 'x', scopes: 'root.all' }, 'scopes')).toBe('Unknown scope: root.all.');
      const list = await agent.get('/web/settings/api').expect(200);
      expect(list.text).toContain('No keys yet.');
      // Shown once: the list without the refusal on the next visit.
      expect(list.text).not.toContain('data-testid="error-');
    });

    it('revokes a key: it fails with 401 Invalid token at once', async () => {
      const agent = webAgent(t);
      await signUp(agent);
      const created = await submitAndFollow(agent, '/web/settings/api', '/web/settings/api/keys', {
        name: 'temp',
        scopes: 'user.read',
      });
      const token = testId(created.text, 'api-key-token');
      const id = /data-key-id="(\d+)"/.exec(created.text)![1];
      await t.http.get('/v1/user').set('Authorization', `Bearer ${token}`).expect(200);
      const res = await submit(agent, '/web/settings/api', `/web/settings/api/keys/${id}/revoke`, {});
      expect(res.status).toBe(303);
      const denied = await t.http.get('/v1/user').set('Authorization', `Bearer ${token}`).expect(401);
      expect(denied.body).toEqual({ status: 'error', message: 'Invalid token' });
      expect((await agent.get('/web/settings/api')).text).toContain('revoked');
    });

    it("answers 404 for another store's key and leaves it working", async () => {
      const owner = webAgent(t);
      await signUp(owner);
      const created = await submitAndFollow(owner, '/web/settings/api', '/web/settings/api/keys', {
        name: 'mine',
        scopes: 'user.read',
      });
      const token = testId(created.text, 'api-key-token');
      const id = /data-key-id="(\d+)"/.exec(created.text)![1];
      const intruder = webAgent(t);
      await signUp(intruder);
      const res = await submit(intruder, '/web/settings/api', `/web/settings/api/keys/${id}/revoke`, {});
      expect(res.status).toBe(404);
      await t.http.get('/v1/user').set('Authorization', `Bearer ${token}`).expect(200);
    });

    it('refuses a POST without the right CSRF token with 403 and creates nothing', async () => {
      const agent = webAgent(t);
      const seller = await signUp(agent);
      for (const form of [
        { name: 'forged', scopes: 'user.read' },
        { name: 'forged', scopes: 'user.read', _csrf: 'not-the-token' },
      ]) {
        const res = await agent.post('/web/settings/api/keys').type('form').send(form).expect(403);
        expect(res.text).not.toContain('api-key-token');
      }
      const rows = await t.dataSource.query(
        `SELECT count(*)::int AS n FROM api_keys k JOIN sellers s ON s.id = k.seller_id WHERE s.email = $1`,
        [seller.email],
      );
      expect(rows[0].n).toBe(0);
      // A token from another session is not this session's token either.
      const other = webAgent(t);
      const foreignToken = csrfFrom((await other.get('/web/login')).text);
      await agent
        .post('/web/settings/api/keys')
        .type('form')
        .send({ name: 'x', scopes: 'user.read', _csrf: foreignToken })
        .expect(403);
    });
  });

  describe('OAuth apps', () => {
    it('registers an app showing client_id and the secret once; lists it without the secret', async () => {
      const agent = webAgent(t);
      await signUp(agent);
      const app = await registerApp(agent, ['https://a.example.com/cb', 'http://localhost:8080/cb']);
      expect(app.clientSecret).toMatch(/^cs_/);
      const list = await agent.get('/web/apps').expect(200);
      expect(list.text).toContain(app.clientId);
      expect(list.text).not.toContain(app.clientSecret);
      expect(list.text).toContain('https://a.example.com/cb');
      expect(list.text).toContain('active');
    });

    it('rejects a registration without a valid redirect URI (422)', async () => {
      const agent = webAgent(t);
      await signUp(agent);
      for (const redirect_uris of ['', 'not a url', 'https://a.example.com/cb#frag']) {
        const res = await submit(agent, '/web/apps', '/web/apps', { name: 'x', redirect_uris });
        expect(res.status).toBe(422);
        expect(res.text).not.toContain('data-testid="client-secret"');
        expect(testId(res.text, 'error-redirect_uris')).toBe(
          redirect_uris
            ? `Not an absolute http(s) URL without fragment: ${redirect_uris}.`
            : 'A redirect URI is required.',
        );
      }
    });

    it("deactivates, activates, rotates; another store's app is 404", async () => {
      const agent = webAgent(t);
      await signUp(agent);
      const app = await registerApp(agent, ['https://a.example.com/cb']);
      expect((await submit(agent, '/web/apps', `/web/apps/${app.id}/deactivate`, {})).status).toBe(303);
      expect((await agent.get('/web/apps')).text).toContain('inactive');
      expect((await submit(agent, '/web/apps', `/web/apps/${app.id}/activate`, {})).status).toBe(303);
      const rotated = await submitAndFollow(agent, '/web/apps', `/web/apps/${app.id}/rotate-secret`, {});
      expect(testId(rotated.text, 'client-id')).toBe(app.clientId);
      expect(testId(rotated.text, 'client-secret')).not.toBe(app.clientSecret);

      const intruder = webAgent(t);
      await signUp(intruder);
      for (const action of ['deactivate', 'activate', 'rotate-secret']) {
        expect((await submit(intruder, '/web/apps', `/web/apps/${app.id}/${action}`, {})).status).toBe(404);
        // An id past what any id column holds is no app either, not a database error.
        expect((await submit(agent, '/web/apps', `/web/apps/99999999999999999999/${action}`, {})).status).toBe(404);
      }
      expect(
        (await submit(agent, '/web/settings/api', '/web/settings/api/keys/99999999999999999999/revoke', {})).status,
      ).toBe(404);
    });
  });
});

async function waitFor<T>(probe: () => Promise<T>, timeoutMs = 3000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}
