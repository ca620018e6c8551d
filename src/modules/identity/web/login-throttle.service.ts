import { Injectable } from '@nestjs/common';
import { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import { TooManyRequestsError } from '../../../common/errors/app-error';
import { countRequest } from '../rate-limit/rate-limit-state';
import { RateLimiterFactory } from '../rate-limit/rate-limiter.factory';

const WINDOW_SECONDS = 15 * 60;
const HOUR_SECONDS = 60 * 60;
/** Reset links asked for one address, and from one IP, in an hour. */
const FORGOT_PER_EMAIL = 3;
const FORGOT_PER_IP = 20;
/** Wrong current passwords one seller may type on Settings → Password in a window, as at login. */
const PASSWORD_CHANGE_GUESSES = 5;

/** The lockout's words, on the login page and on Settings → Password alike. */
export function lockoutMessage(retryAfterSeconds: number): string {
  return `Too many failed attempts. Try again in ${Math.ceil(retryAfterSeconds / 60)} minutes.`;
}

/**
 * Password-guessing brake: 5 failed logins per email and IP, and 50 per IP across emails, in 15
 * minutes. Only failures count; a success clears the email+IP counter.
 *
 * Forgot password has its own counters, where every request counts, known address or not: 3 per
 * email (whatever the IP) and 20 per IP in an hour, so nobody floods a seller's inbox.
 *
 * Settings → Password has the login's brake per seller, not per IP (whoever guesses there holds the
 * session): 5 wrong current passwords in 15 minutes (identity's README, *Password reset*).
 */
@Injectable()
export class LoginThrottleService {
  private readonly byEmailAndIp: RateLimiterAbstract;
  private readonly byIp: RateLimiterAbstract;
  private readonly forgotByEmail: RateLimiterAbstract;
  private readonly forgotByIp: RateLimiterAbstract;
  private readonly passwordChangeBySeller: RateLimiterAbstract;

  constructor(factory: RateLimiterFactory) {
    this.byEmailAndIp = factory.create({ keyPrefix: 'login:email-ip', points: 5, duration: WINDOW_SECONDS });
    this.byIp = factory.create({ keyPrefix: 'login:ip', points: 50, duration: WINDOW_SECONDS });
    this.forgotByEmail = factory.create({
      keyPrefix: 'forgot:email',
      points: FORGOT_PER_EMAIL,
      duration: HOUR_SECONDS,
    });
    this.forgotByIp = factory.create({ keyPrefix: 'forgot:ip', points: FORGOT_PER_IP, duration: HOUR_SECONDS });
    this.passwordChangeBySeller = factory.create({
      keyPrefix: 'password-change:seller',
      points: PASSWORD_CHANGE_GUESSES,
      duration: WINDOW_SECONDS,
    });
  }

  /**
   * Settings → Password, before the current password is checked: takes one of the seller's guesses,
   * or throws 429 once they are spent, whatever is typed. Taken up front rather than after a
   * failure, so guesses sent side by side cannot all pass while the first ones are still being
   * checked; {@link passwordChangeGuessRight} gives it back when the current password was right.
   */
  async passwordChangeGuess(sellerId: number): Promise<void> {
    const count = await countRequest(this.passwordChangeBySeller, PASSWORD_CHANGE_GUESSES, String(sellerId));
    if (!count.allowed) throw new TooManyRequestsError(count.resetSeconds);
  }

  /** The current password was right but the change was refused (the new one breaks the rule). */
  async passwordChangeGuessRight(sellerId: number): Promise<void> {
    await this.passwordChangeBySeller.reward(String(sellerId), 1);
  }

  /** The password changed: the seller's count starts again. */
  async passwordChanged(sellerId: number): Promise<void> {
    await this.passwordChangeBySeller.delete(String(sellerId));
  }

  /** Counts one forgot-password request; throws 429 once either counter is spent. */
  async forgotPassword(email: string, ip: string): Promise<void> {
    const refusals = await Promise.all([
      this.forgotByEmail.consume(email.trim().toLowerCase()).then(
        () => null,
        (refusal: unknown) => refusal,
      ),
      this.forgotByIp.consume(ip).then(
        () => null,
        (refusal: unknown) => refusal,
      ),
    ]);
    const failure = refusals.find((refusal) => refusal instanceof Error);
    if (failure) throw failure;
    const blocked = refusals.filter((refusal): refusal is RateLimiterRes => refusal instanceof RateLimiterRes);
    if (blocked.length)
      throw new TooManyRequestsError(Math.max(...blocked.map((res) => Math.ceil(res.msBeforeNext / 1000))));
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
