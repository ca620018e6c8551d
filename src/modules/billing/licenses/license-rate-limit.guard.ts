import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import { TooManyRequestsError } from '../../../common/errors/app-error';
import { RateLimiterFactory } from '../../identity';

/** the public license API takes 60 requests a minute per IP. */
export const LICENSE_REQUESTS_PER_MINUTE = 60;

/**
 * Counts every request of the public license API by client IP (shared through Redis when
 * `REDIS_URL` is set) before anything else is read, so guessing keys costs a minute per 60 tries.
 * Its answers carry the `RateLimit-*` headers of that count, as the token-limited API's do of a
 * token's.
 */
@Injectable()
export class LicenseRateLimitGuard implements CanActivate {
  readonly limiter: RateLimiterAbstract;

  constructor(factory: RateLimiterFactory) {
    this.limiter = factory.create({ keyPrefix: 'rl:licenses', points: LICENSE_REQUESTS_PER_MINUTE, duration: 60 });
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<FastifyRequest>();
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    let counted: RateLimiterRes;
    try {
      counted = await this.limiter.consume(req.ip);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      throw new TooManyRequestsError(withHeaders(reply, rejection));
    }
    withHeaders(reply, counted);
    return true;
  }
}

/** Sets the `RateLimit-*` headers of this count; returns the seconds until the window resets. */
function withHeaders(reply: FastifyReply, counted: RateLimiterRes): number {
  const resetSeconds = Math.max(1, Math.ceil(counted.msBeforeNext / 1000));
  reply
    .header('RateLimit-Limit', String(LICENSE_REQUESTS_PER_MINUTE))
    .header('RateLimit-Remaining', String(Math.max(0, counted.remainingPoints)))
    .header('RateLimit-Reset', String(resetSeconds));
  return resetSeconds;
}
