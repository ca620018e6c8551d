import { csrfSync } from 'csrf-sync';
import type { Request } from 'express';

/** Synchronizer-token CSRF (decisions §2.1): the token lives in the session, forms echo it in `_csrf`. */
export const csrf = csrfSync({
  getTokenFromRequest: (req) => (typeof req.body?._csrf === 'string' ? req.body._csrf : undefined),
});

/** The token a form must carry in its hidden `_csrf` field; created with the session on first use. */
export function csrfToken(req: Request): string {
  return csrf.generateToken(req);
}
