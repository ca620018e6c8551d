import TestAgent from 'supertest/lib/agent';
import { SellersService } from '../../../src/modules/identity/sellers/sellers.service';
import { createSeller, TestSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';
import { csrfFrom, submit, testId, webAgent } from './support/web';

jest.setTimeout(120_000);

const LOCKOUT = 'Too many failed attempts. Try again in 15 minutes.';

/**
 * Settings → Password limits wrong current passwords per seller as the login does (identity's
 * README, *Password reset*): the session holder cannot guess the password without end.
 */
describe('Settings → Password: guessing the current password', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const login = async (seller: TestSeller): Promise<TestAgent> => {
    const agent = webAgent(t);
    const res = await submit(agent, '/web/login', '/web/login', { email: seller.email, password: seller.password });
    if (res.status !== 303) throw new Error(`login answered ${res.status}`);
    return agent;
  };
  const change = (agent: TestAgent, current: string, next: string) =>
    submit(agent, '/web/settings/password', '/web/settings/password', {
      current_password: current,
      new_password: next,
    });
  const wrongGuess = async (agent: TestAgent, i: number) => {
    const res = await change(agent, `wrong guess ${i}`, 'a new password');
    expect(res.status).toBe(422);
    expect(testId(res.text, 'error-current_password')).toBe('The current password is wrong.');
  };
  const passwordIs = async (seller: TestSeller, password: string) =>
    (await t.app.get(SellersService).verifyCredentials(seller.email, password)) !== null;

  it('after 5 wrong guesses refuses with 429 and Retry-After, even the right password, per seller', async () => {
    const seller = await createSeller(t);
    const agent = await login(seller);
    for (let i = 0; i < 5; i += 1) await wrongGuess(agent, i);

    const blocked = await change(agent, seller.password, 'the attacker password');
    expect(blocked.status).toBe(429);
    const retryAfter = Number(blocked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(blocked.headers['content-type']).toMatch(/text\/html/);
    // The page's own way of showing an error: under the current password's field, the form still there.
    expect(testId(blocked.text, 'error-current_password')).toBe(LOCKOUT);
    expect(blocked.text).toContain('data-testid="password-form"');
    expect(await passwordIs(seller, seller.password)).toBe(true);
    expect(await passwordIs(seller, 'the attacker password')).toBe(false);

    // Counted per seller, not per session: the seller's other session is locked out too.
    const otherSession = webAgent(t);
    expect(
      (await submit(otherSession, '/web/login', '/web/login', { email: seller.email, password: seller.password }))
        .status,
    ).toBe(303);
    const fromOtherSession = await change(otherSession, seller.password, 'the attacker password');
    expect(fromOtherSession.status).toBe(429);
    expect(Number(fromOtherSession.headers['retry-after'])).toBeGreaterThan(0);
    expect(await passwordIs(seller, seller.password)).toBe(true);

    // The login's lockout says the same (this one blocks the login of this seller from this IP).
    const loginAgent = webAgent(t);
    for (let i = 0; i < 5; i += 1)
      await submit(loginAgent, '/web/login', '/web/login', { email: seller.email, password: `wrong ${i}` });
    const loginBlocked = await submit(loginAgent, '/web/login', '/web/login', {
      email: seller.email,
      password: seller.password,
    });
    expect(loginBlocked.status).toBe(429);
    expect(loginBlocked.text).toContain(LOCKOUT);

    // Nor per IP: another seller from the same address changes theirs.
    const other = await createSeller(t);
    const changed = await change(await login(other), other.password, 'another new password');
    expect(changed.status).toBe(303);
    expect(await passwordIs(other, 'another new password')).toBe(true);
  });

  it('a successful change starts the count again; a right password with a short new one spends nothing', async () => {
    const seller = await createSeller(t);
    const agent = await login(seller);
    for (let i = 0; i < 4; i += 1) await wrongGuess(agent, i);

    const short = await change(agent, seller.password, 'short');
    expect(short.status).toBe(422);
    expect(testId(short.text, 'error-new_password')).toBe('Use at least 8 characters.');
    expect(short.text).not.toContain('data-testid="error-current_password"');

    const changed = await change(agent, seller.password, 'the changed password');
    expect(changed.status).toBe(303);
    expect(changed.headers.location).toBe('/web/settings/password?saved=1');
    expect(await passwordIs(seller, 'the changed password')).toBe(true);

    // Five more wrong guesses are each answered as wrong, and only the sixth is locked out.
    for (let i = 0; i < 5; i += 1) await wrongGuess(agent, i);
    const blocked = await change(agent, 'the changed password', 'yet another password');
    expect(blocked.status).toBe(429);
    expect(testId(blocked.text, 'error-current_password')).toBe(LOCKOUT);
    expect(await passwordIs(seller, 'the changed password')).toBe(true);
  });

  it('guesses sent side by side cannot pass the limit', async () => {
    const seller = await createSeller(t);
    const agent = await login(seller);
    // One page's token, then every form posted at once, before any answer.
    const csrf = csrfFrom((await agent.get('/web/settings/password').expect(200)).text);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        agent
          .post('/web/settings/password')
          .type('form')
          .send({ _csrf: csrf, current_password: `parallel guess ${i}`, new_password: 'a new password' }),
      ),
    );
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses.filter((status) => status === 422)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(7);
    expect((await change(agent, seller.password, 'the attacker password')).status).toBe(429);
    expect(await passwordIs(seller, seller.password)).toBe(true);
  });
});
