import { Inject, Injectable } from '@nestjs/common';
import { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import { sha256Hex } from '../../../common/crypto';
import { AppConfig } from '../../../config/app-config';
import { APP_CONFIG } from '../../../config/config.module';
import { RateLimiterFactory } from './rate-limiter.factory';

export interface RateLimitState {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

/** `RATE_LIMIT_PER_MINUTE` requests per token per minute (README, *Choices where the contract is silent*). */
@Injectable()
export class TokenRateLimitService {
  private readonly limiter: RateLimiterAbstract;
  private readonly limit: number;

  constructor(@Inject(APP_CONFIG) config: AppConfig, factory: RateLimiterFactory) {
    this.limit = config.rateLimitPerMinute;
    this.limiter = factory.create({ keyPrefix: 'rl:token', points: this.limit, duration: 60 });
  }

  /** Counts one request of this bearer token. Keyed by the token's hash: unique across databases. */
  async consume(token: string): Promise<RateLimitState> {
    try {
      return this.state(await this.limiter.consume(sha256Hex(token)), true);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return this.state(rejection, false);
      throw rejection;
    }
  }

  private state(res: RateLimiterRes, allowed: boolean): RateLimitState {
    return {
      allowed,
      limit: this.limit,
      remaining: Math.max(0, res.remainingPoints),
      resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
    };
  }
}
