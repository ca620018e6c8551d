import type { FastifyRequest } from 'fastify';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { AuthorizationParams, AuthorizationRequestError } from '../oauth/oauth-authorization.service';
import { sessionOf } from './web-auth';

declare module 'express-session' {
  interface SessionData {
    /** Signs the authorization requests the consent screen showed in this session (consent-binding.ts). */
    oauthConsentKey?: string;
    /** The consent pages shown and not yet decided: each page's decision is taken once. */
    oauthConsentNonces?: string[];
  }
}

/** The consent form's hidden field that carries {@link consentBinding}. */
export const CONSENT_BINDING_FIELD = 'request_signature';

/**
 * The consent form echoes the authorization request in hidden fields (the login page brings a
 * logged-out seller back to it from them), so the form could ask for more than the request did:
 * another `scope`, `redirect_uri`, `state` or PKCE challenge. The page signs the request it showed
 * with a key kept in the session, which the browser never sees, and the decision is taken only on
 * a request whose signature matches: the scopes granted are a subset of those the client asked
 * for (identity's README, *OAuth*).
 */
export function consentBinding(req: FastifyRequest, params: AuthorizationParams): string {
  const session = sessionOf(req);
  if (!session) throw new Error('consentBinding used without a dashboard session');
  session.oauthConsentKey ??= randomBytes(32).toString('base64url');
  // One decision per page shown: a form posted again (back button, a resubmitted tab) issues no
  // second code. The newest pages of the session are kept, so several open tabs each work once.
  const nonce = randomBytes(16).toString('base64url');
  session.oauthConsentNonces = [...(session.oauthConsentNonces ?? []), nonce].slice(-MAX_OPEN_PAGES);
  return `${nonce}.${sign(session.oauthConsentKey, nonce, params)}`;
}

/** Refuses (400 page) a decision on a request other than the one the consent screen showed, or on one already decided. */
export function assertConsentBinding(req: FastifyRequest, params: AuthorizationParams, signature: unknown): void {
  const session = sessionOf(req);
  const [nonce, mac] = typeof signature === 'string' ? signature.split('.', 2) : [];
  const open = session?.oauthConsentNonces ?? [];
  const key = session?.oauthConsentKey;
  const expected = key && nonce && open.includes(nonce) ? Buffer.from(sign(key, nonce, params)) : null;
  const given = Buffer.from(mac ?? '');
  if (!expected || given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new AuthorizationRequestError(
      'This authorization request is not the one shown on the consent page, or it was already answered. Start again from the application.',
    );
  }
  session!.oauthConsentNonces = open.filter((candidate) => candidate !== nonce);
}

/** Consent pages of one session that can still be answered. */
const MAX_OPEN_PAGES = 20;

function sign(key: string, nonce: string, params: AuthorizationParams): string {
  const canonical = JSON.stringify([nonce, Object.entries(params).sort(([a], [b]) => (a < b ? -1 : 1))]);
  return createHmac('sha256', key).update(canonical).digest('base64url');
}
