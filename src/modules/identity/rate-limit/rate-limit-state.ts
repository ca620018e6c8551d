import type { FastifyReply } from 'fastify';
import { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';

export interface RateLimitState {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

/** Counts one request of `key` against `limiter` (`limit` a window): allowed or not, and what is left. */
export async function countRequest(limiter: RateLimiterAbstract, limit: number, key: string): Promise<RateLimitState> {
  try {
    return stateOf(await limiter.consume(key), limit, true);
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return stateOf(rejection, limit, false);
    throw rejection;
  }
}

/** The `RateLimit-*` headers of a count, on every answer it lets through or refuses. */
export function setRateLimitHeaders(reply: FastifyReply, state: RateLimitState): void {
  reply
    .header('RateLimit-Limit', String(state.limit))
    .header('RateLimit-Remaining', String(state.remaining))
    .header('RateLimit-Reset', String(state.resetSeconds));
}

function stateOf(res: RateLimiterRes, limit: number, allowed: boolean): RateLimitState {
  return {
    allowed,
    limit,
    remaining: Math.max(0, res.remainingPoints),
    resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
  };
}
