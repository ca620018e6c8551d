import request from 'supertest';
import TestAgent from 'supertest/lib/agent';
import { TestApp } from '../../../utils/test-app';

/** A browser-like client of the dashboard: keeps the session cookie between requests. */
export function webAgent(t: TestApp): TestAgent {
  return request.agent(t.app.getHttpServer());
}

export function csrfFrom(html: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!match) throw new Error(`no _csrf field in page: ${html.slice(0, 500)}`);
  return match[1];
}

export function testId(html: string, id: string): string {
  const match = new RegExp(`data-testid="${id}"[^>]*>([^<]*)<`).exec(html);
  if (!match) throw new Error(`no data-testid="${id}" in page`);
  return match[1].trim();
}

/** GETs `page` for its CSRF token, then POSTs `form` to `action` as a browser would. */
export async function submit(agent: TestAgent, page: string, action: string, form: Record<string, string | string[]>) {
  const csrf = csrfFrom((await agent.get(page).expect(200)).text);
  return agent
    .post(action)
    .type('form')
    .send({ ...form, _csrf: csrf });
}

/**
 * The page a form's POST redirected to (post/redirect/get, 303), as the browser shows it next:
 * what the form left to show once (a new key's token, a refusal's messages) is on that page.
 */
export async function follow(agent: TestAgent, posted: { status: number; headers: Record<string, string> }) {
  if (posted.status !== 303) throw new Error(`expected a 303 after the form, got ${posted.status}`);
  return agent.get(posted.headers.location).expect(200);
}

/** {@link submit}, then the page it redirected to. */
export async function submitAndFollow(
  agent: TestAgent,
  page: string,
  action: string,
  form: Record<string, string | string[]>,
) {
  return follow(agent, await submit(agent, page, action, form));
}

let counter = 0;

export interface WebSeller {
  email: string;
  password: string;
}

export async function signUp(agent: TestAgent, overrides: Partial<Record<string, string>> = {}): Promise<WebSeller> {
  counter += 1;
  const email = overrides.email ?? `web-${process.pid}-${Date.now()}-${counter}@example.com`;
  const password = overrides.password ?? 'a long enough password';
  const res = await submit(agent, '/web/signup', '/web/signup', {
    name: 'Ana Seller',
    email,
    password,
    store_name: 'Ana Books',
    currency: 'MZN',
    ...overrides,
  });
  if (res.status !== 303) throw new Error(`signup answered ${res.status}: ${res.text.slice(0, 500)}`);
  return { email, password };
}

export async function registerApp(
  agent: TestAgent,
  redirectUris: string[],
  name = 'Partner app',
): Promise<{ clientId: string; clientSecret: string; id: number }> {
  const posted = await submit(agent, '/web/apps', '/web/apps', { name, redirect_uris: redirectUris.join('\n') });
  if (posted.status !== 303)
    throw new Error(`app registration answered ${posted.status}: ${posted.text.slice(0, 500)}`);
  const res = await follow(agent, posted);
  const clientId = testId(res.text, 'client-id');
  const id = Number(new RegExp(`data-app-id="(\\d+)">\\s*<td[^>]*>${name}`).exec(res.text)?.[1]);
  return { clientId, clientSecret: testId(res.text, 'client-secret'), id };
}
