import { csrfSync } from 'csrf-sync';
import type { Request } from 'express';
import type { FastifyRequest } from 'fastify';
import { sessionOf } from '../web-auth';

/** Synchronizer-token CSRF (README, *Operating it*): the token lives in the session, forms echo it in `_csrf`. */
const csrf = csrfSync({
  getTokenFromRequest: (req) => (typeof req.body?._csrf === 'string' ? req.body._csrf : undefined),
});

/**
 * csrf-sync reads the session and the parsed form from one request object. A multipart form (a file
 * upload) is read by the handler's interceptor after the guards, so it carries its token in the
 * address of its `action` instead (`?_csrf=`; request logs keep only the query's names).
 */
function csrfInput(req: FastifyRequest): Request {
  const multipart = (req.headers['content-type'] ?? '').startsWith('multipart/form-data');
  const body = multipart ? { _csrf: (req.query as Record<string, unknown> | undefined)?._csrf } : req.body;
  return { session: sessionOf(req), body } as unknown as Request;
}

/** The token a form must carry in its hidden `_csrf` field; created with the session on first use. */
export function csrfToken(req: FastifyRequest): string {
  return csrf.generateToken(csrfInput(req));
}

export function csrfTokenMatches(req: FastifyRequest): boolean {
  return csrf.isRequestValid(csrfInput(req));
}

/** A dashboard POST without the session's CSRF token (rendered as a 403 page). */
export class InvalidFormError extends Error {
  constructor() {
    super('The form has expired or did not come from this site. Reload the page and try again.');
  }
}
