import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import * as argon2 from 'argon2';
import { DataSource } from 'typeorm';
import { randomBase62, sha256Hex } from '../../../common/crypto';
import { ValidationError } from '../../../common/errors/app-error';
import { JobQueue } from '../../../common/jobs/job-queue';
import { Clock, CLOCK } from '../../../common/time';
import { AppConfig } from '../../../config/app-config';
import { APP_CONFIG } from '../../../config/config.module';
import { SellersRepository } from '../sellers/sellers.repository';
import { SellersService } from '../sellers/sellers.service';
import { PasswordResetToken } from './password-reset-token.entity';
import { SellerMail } from './seller-mail';

/** How long a link works. */
export const RESET_LINK_TTL_MS = 60 * 60 * 1000;
/** Spent links are kept this long after they expire, so their page can say "already used". */
const KEEP_SPENT_MS = 24 * 60 * 60 * 1000;
const QUEUE = 'identity-password-reset';

interface ResetRequest {
  email: string;
  requestedAt: string;
}

/** What a reset link is worth now. */
export type ResetLinkState = 'valid' | 'used' | 'expired' | 'unknown';

/**
 * Forgotten passwords (identity's README, *Password reset*).
 *
 * `request` only queues a job with the address typed, known or not: the answer, and the time it
 * takes, say nothing about which addresses have an account. The job looks the seller up and, for
 * a known one, stores the SHA-256 hash of a new random token (valid one hour; the seller's unused
 * earlier links stop working) and has the email sent; the token exists in clear only in that
 * email. `reset` spends the link atomically (one `UPDATE … WHERE used_at IS NULL AND expires_at >
 * now`), sets the password and ends every dashboard session of the seller in one transaction.
 */
@Injectable()
export class PasswordResetService implements OnModuleInit {
  private readonly logger = new Logger('PasswordReset');
  private readonly webUrl: string;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly sellers: SellersRepository,
    private readonly jobs: JobQueue,
    private readonly mail: SellerMail,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.webUrl = config.urls.web.replace(/\/+$/, '');
  }

  onModuleInit(): void {
    this.jobs.define<ResetRequest>(QUEUE, (job) => this.sendLink(job), {
      // A refused email is tried again a few times within the hour the link would have lasted.
      retryLimit: 3,
      retryDelaySeconds: 60,
      retryBackoff: true,
      expireInSeconds: 180,
    });
  }

  /** Forgot password: the same work for every address (one job queued). */
  async request(email: string): Promise<void> {
    await this.jobs.send<ResetRequest>(QUEUE, {
      email: email.trim().toLowerCase(),
      requestedAt: this.clock.now().toISOString(),
    });
  }

  /** The job: for a known seller, a new link, emailed. A request older than a link's life is dropped. */
  async sendLink({ email, requestedAt }: ResetRequest): Promise<void> {
    const now = this.clock.now();
    if (now.getTime() - Date.parse(requestedAt) > RESET_LINK_TTL_MS) return;
    const seller = await this.sellers.findByEmail(email);
    if (!seller) return;
    const token = randomBase62(43);
    const expiresAt = new Date(now.getTime() + RESET_LINK_TTL_MS);
    const row = await this.dataSource.transaction(async (manager) => {
      // The newest link replaces the unused ones; spent links are kept a day past their expiry.
      await manager
        .createQueryBuilder()
        .delete()
        .from(PasswordResetToken)
        .where('seller_id = :sellerId AND (used_at IS NULL OR expires_at < :before)', {
          sellerId: seller.id,
          before: new Date(now.getTime() - KEEP_SPENT_MS),
        })
        .execute();
      return manager.save(
        manager.create(PasswordResetToken, {
          sellerId: seller.id,
          tokenHash: sha256Hex(token),
          expiresAt,
          usedAt: null,
        }),
      );
    });
    const detail = await this.mail.sendPasswordReset({
      id: `password-reset.${row.id}`,
      seller: { name: seller.name, email: seller.email },
      link: `${this.webUrl}/reset-password?token=${token}`,
      expiresAt,
    });
    this.logger.log({ seller: seller.id, detail }, 'Password reset link sent');
  }

  async stateOf(token: string): Promise<ResetLinkState> {
    const row = token
      ? await this.dataSource.manager.findOneBy(PasswordResetToken, { tokenHash: sha256Hex(token) })
      : null;
    if (!row) return 'unknown';
    if (row.usedAt) return 'used';
    return row.expiresAt.getTime() > this.clock.now().getTime() ? 'valid' : 'expired';
  }

  /**
   * Sets the new password through a valid link. Field errors (`new_password`, `confirm_password`)
   * as a `ValidationError`, link and password unchanged; a link that is not valid (or was spent by
   * a concurrent request) answers its state and changes nothing.
   */
  async reset(token: string, password: string, confirmation: string): Promise<ResetLinkState | 'reset'> {
    const state = await this.stateOf(token);
    if (state !== 'valid') return state;
    const errors: Record<string, string[]> = {};
    const rule = SellersService.newPasswordError(password);
    if (rule) errors.new_password = [rule];
    else if (confirmation !== password) errors.confirm_password = ['The two passwords do not match.'];
    if (Object.keys(errors).length) throw new ValidationError(errors);
    const passwordHash = await argon2.hash(password, { type: argon2.argon2id });
    const now = this.clock.now();
    const done = await this.dataSource.transaction(async (manager) => {
      const spent = await manager
        .createQueryBuilder()
        .update(PasswordResetToken)
        .set({ usedAt: now })
        .where('token_hash = :hash AND used_at IS NULL AND expires_at > :now', { hash: sha256Hex(token), now })
        .returning('seller_id')
        .execute();
      const sellerId = (spent.raw as Array<{ seller_id: number }>)[0]?.seller_id;
      if (!sellerId) return false;
      await manager
        .createQueryBuilder()
        .delete()
        .from(PasswordResetToken)
        .where('seller_id = :sellerId AND used_at IS NULL', { sellerId })
        .execute();
      await this.sellers.replacePassword(sellerId, passwordHash, { manager });
      return true;
    });
    return done ? 'reset' : this.stateOf(token);
  }
}
