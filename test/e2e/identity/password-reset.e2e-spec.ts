import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import TestAgent from 'supertest/lib/agent';
import { sha256Hex } from '../../../src/common/crypto';
import { createSeller, TestSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';
import { resetMails, waitForResetMail } from './support/reset-mail';
import { csrfFrom, submit, testId, webAgent } from './support/web';

jest.setTimeout(120_000);

/**
 * Forgot password → emailed link → new password (identity's README, *Password reset*), and the
 * sessions a password change or reset logs out, against PostgreSQL and the real outbox.
 */
describe('password reset and the sessions a new password ends', () => {
  let t: TestApp;
  const dataDir = mkdtempSync(join(tmpdir(), 'password-reset-'));

  beforeAll(async () => {
    t = await createTestApp({ env: { DATA_DIR: dataDir } });
  });
  afterAll(() => t.close());

  const forgot = (agent: TestAgent, email: string) =>
    submit(agent, '/web/forgot-password', '/web/forgot-password', { email });
  const login = (agent: TestAgent, email: string, password: string) =>
    submit(agent, '/web/login', '/web/login', { email, password });
  const loggedIn = async (agent: TestAgent) => (await agent.get('/web/settings/password')).status === 200;
  const resetWith = (agent: TestAgent, token: string, password: string, confirmation = password) =>
    submit(agent, `/web/reset-password?token=${token}`, '/web/reset-password', {
      token,
      new_password: password,
      confirm_password: confirmation,
    });
  /** The page as any visitor sees it, whatever the session's CSRF token and the address typed. */
  const neutral = (html: string, email: string) =>
    html.replace(/name="_csrf" value="[^"]+"/g, '').replaceAll(email, 'EMAIL');

  it('answers an unknown and a known address alike; only the known one gets a link, stored as a hash', async () => {
    const seller = await createSeller(t);
    const unknown = `nobody-${Date.now()}@example.com`;
    const loginPage = await webAgent(t).get('/web/login').expect(200);
    expect(loginPage.text).toContain('href="/web/forgot-password"');

    const form = await webAgent(t).get('/web/forgot-password').expect(200);
    expect(form.text).toContain('name="email"');
    const a = await forgot(webAgent(t), unknown);
    const b = await forgot(webAgent(t), seller.email.toUpperCase());
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(neutral(a.text, unknown)).toBe(neutral(b.text, seller.email));
    expect(testId(a.text, 'notice')).toContain('If a seller account uses');

    const mail = await waitForResetMail(dataDir, seller.email);
    // The unknown address's job ran first (queued first): it wrote nothing.
    expect(await resetMails(dataDir, unknown)).toEqual([]);
    expect(mail.parsed.subject).toBe('Reset your seller dashboard password');
    expect(mail.parsed.from?.value[0]).toMatchObject({ name: 'Seller dashboard' });
    const lines = mail.text.split(/\r?\n/);
    expect(lines).toEqual(
      expect.arrayContaining([
        `Hello Seller ${seller.email.slice(7, 15)},`,
        `Someone asked to reset the password of your seller account (${seller.email}).`,
        `${t.config.urls.web}/reset-password?token=${mail.token}`,
      ]),
    );
    expect(lines.find((line) => line.startsWith('To choose a new password, open this link before'))).toMatch(
      /before \d{4}-\d\d-\d\d \d\d:\d\d UTC:$/,
    );
    expect(mail.parsed.html).toContain(`/reset-password?token=${mail.token}`);
    expect(mail.token).toMatch(/^[0-9A-Za-z]{43}$/);

    const rows: Array<{ token_hash: string; expires_at: Date; created_at: Date }> = await t.dataSource.query(
      `SELECT token_hash, expires_at, created_at FROM password_reset_tokens WHERE seller_id = $1`,
      [seller.sellerId],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).toBe(sha256Hex(mail.token));
    // Nor does the queued job hold it: it carries the address typed, the token is made when it runs.
    const [{ jobs }] = await t.dataSource.query(
      `SELECT count(*)::int AS jobs FROM pgboss.job WHERE data::text LIKE '%' || $1 || '%'`,
      [mail.token],
    );
    expect(jobs).toBe(0);
    const life = rows[0].expires_at.getTime() - rows[0].created_at.getTime();
    expect(Math.abs(life - 60 * 60 * 1000)).toBeLessThan(60_000);
  });

  it('refuses bad new passwords with the field message and changes nothing; the link then works once', async () => {
    const seller = await createSeller(t);
    expect((await forgot(webAgent(t), seller.email)).status).toBe(200);
    const { token } = await waitForResetMail(dataDir, seller.email);
    const visitor = webAgent(t);

    const page = await visitor.get(`/web/reset-password?token=${token}`).expect(200);
    expect(page.text).toContain(`name="token" value="${token}"`);

    const short = await resetWith(visitor, token, 'short');
    expect(short.status).toBe(422);
    expect(testId(short.text, 'error-new_password')).toBe('Use at least 8 characters.');
    const mismatch = await resetWith(visitor, token, 'a brand new password', 'another password');
    expect(mismatch.status).toBe(422);
    expect(testId(mismatch.text, 'error-confirm_password')).toBe('The two passwords do not match.');
    // Nothing changed: the old password works and the link still opens the form.
    expect((await login(webAgent(t), seller.email, seller.password)).status).toBe(303);
    await visitor.get(`/web/reset-password?token=${token}`).expect(200);

    const done = await resetWith(visitor, token, 'a brand new password');
    expect(done.status).toBe(303);
    expect(done.headers.location).toBe('/web/login?reset=1');
    const notice = await visitor.get('/web/login?reset=1').expect(200);
    expect(testId(notice.text, 'notice')).toBe('Your password is changed. Log in with the new one.');
    expect((await login(webAgent(t), seller.email, seller.password)).status).toBe(401);
    expect((await login(webAgent(t), seller.email, 'a brand new password')).status).toBe(303);

    // The second use, from a form of the same link opened earlier in another tab.
    const again = await submit(webAgent(t), '/web/forgot-password', '/web/reset-password', {
      token,
      new_password: 'yet another password',
      confirm_password: 'yet another password',
    });
    expect(again.status).toBe(410);
    expect(testId(again.text, 'reset-error')).toBe(
      'This link has already been used. Ask for a new one if you need it.',
    );
    const reopened = await webAgent(t).get(`/web/reset-password?token=${token}`).expect(410);
    expect(reopened.text).toContain('This link has already been used.');
    expect((await login(webAgent(t), seller.email, 'yet another password')).status).toBe(401);
  });

  it('refuses an expired link (one hour) and a link a newer one replaced', async () => {
    const seller = await createSeller(t);
    expect((await forgot(webAgent(t), seller.email)).status).toBe(200);
    const first = await waitForResetMail(dataDir, seller.email, 1);
    expect((await forgot(webAgent(t), seller.email)).status).toBe(200);
    const second = await waitForResetMail(dataDir, seller.email, 2);

    const replaced = await webAgent(t).get(`/web/reset-password?token=${first.token}`).expect(404);
    expect(testId(replaced.text, 'reset-error')).toContain('a newer link replaced it');
    await webAgent(t).get(`/web/reset-password?token=${second.token}`).expect(200);
    const agent = webAgent(t);
    const csrf = csrfFrom((await agent.get(`/web/reset-password?token=${second.token}`).expect(200)).text);

    t.clock.advance(60 * 60 * 1000 + 1000);
    try {
      const expired = await webAgent(t).get(`/web/reset-password?token=${second.token}`).expect(410);
      expect(testId(expired.text, 'reset-error')).toBe(
        'This link has expired: a link works for one hour. Ask for a new one.',
      );
      // The form opened before the hour ran out is refused too.
      const late = await agent.post('/web/reset-password').type('form').send({
        _csrf: csrf,
        token: second.token,
        new_password: 'too late a password',
        confirm_password: 'too late a password',
      });
      expect(late.status).toBe(410);
      expect((await login(webAgent(t), seller.email, seller.password)).status).toBe(303);
    } finally {
      t.clock.advance(-(60 * 60 * 1000 + 1000));
    }
  });

  it('logs out every session of the seller after a reset', async () => {
    const seller = await createSeller(t);
    const laptop = webAgent(t);
    const phone = webAgent(t);
    expect((await login(laptop, seller.email, seller.password)).status).toBe(303);
    expect((await login(phone, seller.email, seller.password)).status).toBe(303);
    const other = await otherSellerSession();

    expect((await forgot(webAgent(t), seller.email)).status).toBe(200);
    const { token } = await waitForResetMail(dataDir, seller.email);
    // Reset from the laptop, where the seller is still logged in: that session ends too.
    expect((await resetWith(laptop, token, 'after the reset')).status).toBe(303);

    expect(await loggedIn(laptop)).toBe(false);
    expect(await loggedIn(phone)).toBe(false);
    const redirected = await phone.get('/web/settings/password').expect(303);
    expect(redirected.headers.location).toMatch(/^\/web\/login\?next=/);
    expect(await loggedIn(other)).toBe(true);
    expect(await sessionsOf(seller)).toBe(0);
  });

  it('a password change logs out the other sessions and keeps the current one', async () => {
    const seller = await createSeller(t);
    const laptop = webAgent(t);
    const phone = webAgent(t);
    expect((await login(laptop, seller.email, seller.password)).status).toBe(303);
    expect((await login(phone, seller.email, seller.password)).status).toBe(303);
    const other = await otherSellerSession();

    const wrong = await submit(laptop, '/web/settings/password', '/web/settings/password', {
      current_password: 'not it',
      new_password: 'x',
    });
    expect(wrong.status).toBe(422);
    expect(await loggedIn(phone)).toBe(true);

    const changed = await submit(laptop, '/web/settings/password', '/web/settings/password', {
      current_password: seller.password,
      new_password: 'the changed password',
    });
    expect(changed.status).toBe(303);
    expect(await loggedIn(laptop)).toBe(true);
    expect(await loggedIn(phone)).toBe(false);
    expect(await loggedIn(other)).toBe(true);
    expect(await sessionsOf(seller)).toBe(1);
    expect((await login(phone, seller.email, 'the changed password')).status).toBe(303);
  });

  it('limits reset requests per address: the fourth in an hour gets 429, known address or not', async () => {
    const seller = await createSeller(t);
    for (const email of [seller.email, `ghost-${Date.now()}@example.com`]) {
      for (let i = 0; i < 3; i++) expect((await forgot(webAgent(t), email)).status).toBe(200);
      const blocked = await forgot(webAgent(t), email);
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      expect(testId(blocked.text, 'forgot-error')).toMatch(/^Too many reset requests\. Try again in \d+ minutes\.$/);
    }
    for (const typed of ['not an address', `${'a'.repeat(400)}@example.com`]) {
      const invalid = await forgot(webAgent(t), typed);
      expect(invalid.status).toBe(422);
      expect(testId(invalid.text, 'error-email')).toBe('Enter a valid email address.');
    }
  });

  async function otherSellerSession(): Promise<TestAgent> {
    const other = await createSeller(t);
    const agent = webAgent(t);
    expect((await login(agent, other.email, other.password)).status).toBe(303);
    return agent;
  }

  async function sessionsOf(seller: TestSeller): Promise<number> {
    const [{ count }] = await t.dataSource.query(
      `SELECT count(*)::int AS count FROM web_sessions WHERE sess->>'sellerId' = $1`,
      [String(seller.sellerId)],
    );
    return count;
  }
});
