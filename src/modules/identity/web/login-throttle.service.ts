import { Injectable } from '@nestjs/common';
import { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import { TooManyRequestsError } from '../../../common/errors/app-error';
import { RateLimiterFactory } from '../rate-limit/rate-limiter.factory';

const WINDOW_SECONDS = 15 * 60;

/**
 * Password-guessing brake: 5 failed logins per email and IP, and 50 per IP across emails, in 15
 * minutes. Only failures count; a success clears the email+IP counter.
 */
@Injectable()
export class LoginThrottleService {
  private readonly byEmailAndIp: RateLimiterAbstract;
  private readonly byIp: RateLimiterAbstract;

  constructor(factory: RateLimiterFactory) {
    this.byEmailAndIp = factory.create({ keyPrefix: 'login:email-ip', points: 5, duration: WINDOW_SECONDS });
    this.byIp = factory.create({ keyPrefix: 'login:ip', points: 50, duration: WINDOW_SECONDS });
  }

  /** Throws 429 when either counter is spent. */
  async check(email: string, ip: string): Promise<void> {
    const [pair, address] = await Promise.all([this.byEmailAndIp.get(key(email, ip)), this.byIp.get(ip)]);
    const blocked = [
      pair && pair.consumedPoints >= 5 ? pair : null,
      address && address.consumedPoints >= 50 ? address : null,
    ].filter((res): res is RateLimiterRes => res !== null);
    if (blocked.length) {
      const seconds = Math.max(...blocked.map((res) => Math.ceil(res.msBeforeNext / 1000)));
      throw new TooManyRequestsError(seconds);
    }
  }

  async failed(email: string, ip: string): Promise<void> {
    await Promise.all([this.byEmailAndIp.penalty(key(email, ip)), this.byIp.penalty(ip)]);
  }

  async succeeded(email: string, ip: string): Promise<void> {
    await this.byEmailAndIp.delete(key(email, ip));
  }
}

function key(email: string, ip: string): string {
  return `${email.trim().toLowerCase()}|${ip}`;
}
