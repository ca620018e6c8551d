/** The realm of every `WWW-Authenticate: Bearer` challenge (RFC 6750; the security schemes of the OpenAPI description). */
export const AUTH_REALM = 'commerce-api';

/** The challenge of a 401: `error="invalid_token"` only when a bearer token was sent. */
export function bearerChallenge(error?: 'invalid_token'): string {
  return `Bearer realm="${AUTH_REALM}"${error ? `, error="${error}"` : ''}`;
}
