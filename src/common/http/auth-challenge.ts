/** The realm of every `WWW-Authenticate: Bearer` challenge (decisions §3.1, RFC 6750). */
export const AUTH_REALM = 'commerce-api';

/** The challenge of a 401: `error="invalid_token"` only when a bearer token was sent. */
export function bearerChallenge(error?: 'invalid_token'): string {
  return `Bearer realm="${AUTH_REALM}"${error ? `, error="${error}"` : ''}`;
}
