import type { Request } from 'express';

/** `Accept: application/json` gets the JSON answers of decisions §8; browsers get pages. */
export function wantsJson(req: Request): boolean {
  return req.accepts(['html', 'json']) === 'json';
}
