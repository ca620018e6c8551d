import accepts from 'accepts';
import type { FastifyRequest } from 'fastify';

/** `Accept: application/json` gets the JSON answers (README, *Taking payments*); browsers get pages. */
export function wantsJson(req: FastifyRequest): boolean {
  return accepts(req.raw).types(['html', 'json']) === 'json';
}
