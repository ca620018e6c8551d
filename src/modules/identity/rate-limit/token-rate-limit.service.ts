import { Inject, Injectable } from '@nestjs/common';
import { RateLimiterAbstract } from 'rate-limiter-flexible';
import { sha256Hex } from '../../../common/crypto';
import { AppConfig } from '../../../config/app-config';
import { APP_CONFIG } from '../../../config/config.module';
import { countRequest, RateLimitState } from './rate-limit-state';
import { RateLimiterFactory } from './rate-limiter.factory';

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
  consume(token: string): Promise<RateLimitState> {
    return countRequest(this.limiter, this.limit, sha256Hex(token));
  }
}
