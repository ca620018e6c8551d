import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import { TooManyRequestsError } from '../../../common/errors/app-error';
import { RateLimiterFactory } from '../../identity';

/** the public license API takes 60 requests a minute per IP. */
export const LICENSE_REQUESTS_PER_MINUTE = 60;

/**
 * Counts every request of the public license API by client IP (shared through Redis when
 * `REDIS_URL` is set) before anything else is read, so guessing keys costs a minute per 60 tries.
 */
@Injectable()
export class LicenseRateLimitGuard implements CanActivate {
  readonly limiter: RateLimiterAbstract;

  constructor(factory: RateLimiterFactory) {
    this.limiter = factory.create({ keyPrefix: 'rl:licenses', points: LICENSE_REQUESTS_PER_MINUTE, duration: 60 });
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<FastifyRequest>();
    try {
      await this.limiter.consume(req.ip);
      return true;
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes)
        throw new TooManyRequestsError(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)));
      throw rejection;
    }
  }
}
