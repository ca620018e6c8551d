import { Logger } from '@nestjs/common';
import { createTestApp, TestApp } from '../../utils/test-app';
import { signUp, webAgent } from '../identity/support/web';

jest.setTimeout(120_000);

/**
 * An unknown path under the dashboard is its HTML 404 page whatever the method (a POST is not
 * refused for a missing CSRF token: there is no form to protect), with the seller's header when a
 * session is open; elsewhere an unknown path keeps the API's JSON 404. Start-up logs no warning of
 * Nest's route converter about the catch-all.
 */
describe('dashboard 404 page', () => {
  let t: TestApp;
  const warnings: string[] = [];

  beforeAll(async () => {
    const record = (message: unknown) => warnings.push(String(message));
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(record);
    const error = jest.spyOn(Logger.prototype, 'error').mockImplementation(record);
    try {
      t = await createTestApp();
    } finally {
      warn.mockRestore();
      error.mockRestore();
    }
  });
  afterAll(() => t.close());

  it('start-up logs no route-converter warning', () => {
    expect(warnings.filter((w) => /Unsupported route path|LegacyRouteConverter/.test(w))).toEqual([]);
  });

  it('answers the HTML 404 page for GET, POST and the other methods, without a session', async () => {
    for (const method of ['get', 'post', 'put', 'patch', 'delete'] as const) {
      const res = await t.http[method]('/web/nowhere/at-all')
        .type('form')
        .send(method === 'get' ? undefined : 'a=1');
      expect([method, res.status]).toEqual([method, 404]);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.text).toContain('Page not found');
      expect(res.text).toContain('data-testid="back-link"');
      expect(res.text).not.toContain('The form has expired');
    }
    const json = await t.http.post('/web/nowhere').send({ a: 1 }).expect(404);
    expect(json.headers['content-type']).toMatch(/^text\/html/);
  });

  it('shows the logged-in header on the 404 page, and a POST to an unknown path changes nothing', async () => {
    const agent = webAgent(t);
    await signUp(agent);
    const page = await agent.get('/web/nowhere').expect(404);
    expect(page.text).toContain('Log out');
    expect(page.text).toContain('data-testid="test-mode-switch"');
    const post = await agent.post('/web/nowhere').type('form').send({ name: 'x' }).expect(404);
    expect(post.text).toContain('Page not found');
    // The session is still there, and a known page's POST still needs its CSRF token.
    await agent.get('/web/settings/password').expect(200);
    const forged = await agent.post('/web/settings/password').type('form').send({ password: 'x' }).expect(403);
    expect(forged.text).toContain('The form has expired or did not come from this site.');
  });

  it('keeps the API’s JSON 404 outside the dashboard', async () => {
    for (const method of ['get', 'post'] as const) {
      const res = await t.http[method]('/v1/nowhere').expect(404);
      expect(res.body).toEqual({ status: 'error', message: 'Resource not found.' });
    }
  });
});
