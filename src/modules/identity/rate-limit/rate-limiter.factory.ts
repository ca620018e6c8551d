import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import type Redis from 'ioredis';
import { RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import { AppConfig } from '../../../config/app-config';
import { APP_CONFIG } from '../../../config/config.module';

/**
 * Builds rate limiters: in memory by default, in Redis when `REDIS_URL` is set so every instance
 * shares the counters (README, *Choices where the contract is silent*). A Redis outage falls back to a per-process limiter rather
 * than failing requests.
 */
@Injectable()
export class RateLimiterFactory implements OnApplicationShutdown {
  private readonly redis?: Redis;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    if (config.redisUrl) {
      // Required only with REDIS_URL: without it the client would sit unused in every process's heap.
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded lazily, see above
      const { default: RedisClient } = require('ioredis') as typeof import('ioredis');
      this.redis = new RedisClient(config.redisUrl, { maxRetriesPerRequest: 1, connectTimeout: 2_000 });
      // Errors are reported through the limiter's insurance fallback; an unhandled 'error' event would crash.
      this.redis.on('error', () => undefined);
    }
  }

  get usesRedis(): boolean {
    return this.redis !== undefined;
  }

  create(options: {
    keyPrefix: string;
    points: number;
    duration: number;
    blockDuration?: number;
  }): RateLimiterAbstract {
    const memory = new RateLimiterMemory(options);
    if (!this.redis) return memory;
    return new RateLimiterRedis({ ...options, storeClient: this.redis, insuranceLimiter: memory });
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.redis) await this.redis.quit().catch(() => this.redis?.disconnect());
  }
}
