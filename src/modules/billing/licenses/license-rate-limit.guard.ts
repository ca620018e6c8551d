import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RateLimiterAbstract } from 'rate-limiter-flexible';
import { TooManyRequestsError } from '../../../common/errors/app-error';
import { countRequest, RateLimiterFactory, setRateLimitHeaders } from '../../identity';

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
    const limit = await countRequest(this.limiter, LICENSE_REQUESTS_PER_MINUTE, req.ip);
    setRateLimitHeaders(context.switchToHttp().getResponse<FastifyReply>(), limit);
    if (!limit.allowed) throw new TooManyRequestsError(limit.resetSeconds);
    return true;
  }
}
