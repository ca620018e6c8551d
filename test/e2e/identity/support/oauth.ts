import { createHash, randomBytes } from 'node:crypto';
import TestAgent from 'supertest/lib/agent';
import { TestApp } from '../../../utils/test-app';
import { registerApp, signUp, webAgent } from './web';

export const REDIRECT_URI = 'https://partner.example.com/callback';

export interface OAuthFixture {
  agent: TestAgent;
  clientId: string;
  clientSecret: string;
  appId: number;
}

/** A logged-in seller with a registered app whose redirect URI is {@link REDIRECT_URI}. */
export async function oauthFixture(t: TestApp, redirectUris = [REDIRECT_URI]): Promise<OAuthFixture> {
  const agent = webAgent(t);
  await signUp(agent);
  const app = await registerApp(agent, redirectUris);
  return { agent, clientId: app.clientId, clientSecret: app.clientSecret, appId: app.id };
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

/**
 * The hidden fields of the consent page's form (`_csrf`, the request's parameters and its
 * signature), as a browser posts them.
 */
export function consentForm(html: string): Record<string, string> {
  const form = /<form[^>]*oauth\/authorize[^>]*>([\s\S]*?)<\/form>/.exec(html);
  if (!form) throw new Error(`no consent form in page: ${html.slice(0, 500)}`);
  const fields: Record<string, string> = {};
  for (const input of form[1].matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    fields[input[1]] = input[2].replace(/&(amp|lt|gt|quot|#39);/g, (entity: string) => ENTITIES[entity]);
  return fields;
}

/**
 * Opens the consent screen and approves it (optionally with only `approve` checked); answers the
 * callback's query parameters. `state: null` leaves `state` out of the authorization request.
 */
export async function authorize(
  f: OAuthFixture,
  options: { scope?: string; state?: string | null; approve?: string[]; challenge?: string; redirectUri?: string } = {},
): Promise<{ code: string; state: string | null }> {
  const query: Record<string, string> = {
    client_id: f.clientId,
    redirect_uri: options.redirectUri ?? REDIRECT_URI,
    scope: options.scope ?? 'user.read orders.read',
  };
  if (options.state !== null) query.state = options.state ?? 'xyz-state';
  if (options.challenge) Object.assign(query, { code_challenge: options.challenge, code_challenge_method: 'S256' });
  const page = await f.agent.get('/web/oauth/authorize').query(query).expect(200);
  const scopes = options.approve ?? query.scope.split(/[\s,]+/);
  const res = await f.agent
    .post('/web/oauth/authorize')
    .type('form')
    .send({ ...consentForm(page.text), decision: 'approve', scopes })
    .expect(302);
  const location = new URL(res.headers.location);
  return { code: location.searchParams.get('code')!, state: location.searchParams.get('state') };
}

/** The token request body for a code issued by {@link authorize} with its defaults. */
export function codeExchange(
  f: OAuthFixture,
  code: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    grant_type: 'authorization_code',
    code,
    client_id: f.clientId,
    client_secret: f.clientSecret,
    redirect_uri: REDIRECT_URI,
    state: 'xyz-state',
    ...extra,
  };
}
