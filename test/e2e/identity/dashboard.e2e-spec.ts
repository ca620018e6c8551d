import { createTestApp, TestApp } from '../../utils/test-app';
import { csrfFrom, registerApp, signUp, submit, testId, webAgent } from './support/web';

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
      .send({ _csrf: csrfFrom(signupPage.text), name: 'Ana', email: 'ana@example.com', password: 'secret123', store_name: 'Ana Books' })
      .expect(303);
    expect(res.headers.location).toBe('/web/');
    const cookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []).join(';');
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Secure/i);
    const home = await agent.get('/web/').expect(200);
    expect(home.text).toContain('Ana Books');
    expect(home.text).toContain('MZN');
  });
});
