import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { renameSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createTransport, Transporter } from 'nodemailer';
import type { Address } from 'nodemailer/lib/mailer';
import { AppConfig } from '../../../config/app-config';
import { APP_CONFIG } from '../../../config/config.module';
import { SellerMail, type PasswordResetEmail, type SellerMailSender } from '../../identity';
import { ChannelResult, NotificationChannel, NotificationChannels } from '../channels/notification-channel';
import type { CustomerMessage } from '../messages/customer-message';
import type { SellerMessage } from '../messages/seller-message';
import { EmailRenderer, type RenderedEmail } from './email-renderer';

/** The sender's name on messages to sellers when `MAIL_FROM` names none: the dashboard they know. */
const SELLER_SENDER = 'Seller dashboard';

/** How long a silent or stalled SMTP server may hold one send before it counts as failed (and is retried). */
export const SMTP_TIMEOUTS = { connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 };

/**
 * The built-in channel: email through the SMTP server of `SMTP_URL`, or, without it, an `.eml`
 * file per message under `$DATA_DIR/outbox/` (README, *Customer emails*), so development shows what would go.
 * Messages of test orders always go to the outbox, with or without `SMTP_URL`.
 *
 * A message counts as sent when the SMTP server accepted it (its 250 after DATA): a refusal or a
 * timeout throws and the message is tried again later. Each message carries a Message-ID derived
 * from the message (`<receipt.order-12.ORD-…@host>`), the same on every attempt.
 */
@Injectable()
export class EmailChannel implements NotificationChannel, SellerMailSender, OnModuleInit, OnApplicationShutdown {
  readonly name = 'email';
  private readonly logger = new Logger('CustomerEmails');
  private smtp: Transporter | undefined;
  private outboxReady: Promise<unknown> | undefined;
  private readonly outbox = createTransport({ streamTransport: true, buffer: true, newline: 'windows' });

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly renderer: EmailRenderer,
    private readonly channels: NotificationChannels,
    private readonly sellerMail: SellerMail,
  ) {}

  onModuleInit(): void {
    this.channels.register(this);
    // Identity's account emails (password reset) go out through this channel's transports too.
    this.sellerMail.register(this);
  }

  async send(message: CustomerMessage): Promise<ChannelResult> {
    const to = message.customer.email;
    if (!to) return { outcome: 'skipped', reason: 'The customer has no email address.' };
    const detail = await this.deliver({
      id: message.id,
      from: this.fromOf(message.store.brand),
      to: { name: message.customer.name, address: to },
      email: this.renderer.render(message),
      // Test mode's emails never leave the machine: the outbox directory only (README, *Test mode*).
      outboxOnly: message.store.test,
      log: { kind: message.kind, order: message.order.number },
    });
    return { outcome: 'sent', recipient: to, detail };
  }

  /**
   * A message to a seller (notifications' README, *Messages to sellers*): the same transports and
   * rules as the customers' (SMTP, or the outbox; a test store's only to the outbox), sent in the
   * dashboard's name. Throws when the server refuses it, for the job to retry.
   */
  async sendToSeller(message: SellerMessage): Promise<{ recipient: string; detail: string }> {
    const detail = await this.deliver({
      id: message.id,
      from: this.fromOf(SELLER_SENDER),
      to: { name: message.seller.name, address: message.seller.email },
      email: this.renderer.renderForSeller(message),
      outboxOnly: message.store.test,
      log: { kind: message.kind, product: message.product.pid },
    });
    return { recipient: message.seller.email, detail };
  }

  /**
   * A seller's password-reset link (identity's README, *Password reset*): SMTP when `SMTP_URL` is
   * set, else the outbox (`password-reset.<id>.eml`). Throws when the server refuses it, for
   * identity's job to retry. The link is never logged.
   */
  sendPasswordReset(message: PasswordResetEmail): Promise<string> {
    return this.deliver({
      id: message.id,
      from: this.fromOf(SELLER_SENDER),
      to: { name: message.seller.name, address: message.seller.email },
      email: this.renderer.renderPasswordReset(message),
      outboxOnly: false,
      log: { kind: 'password_reset' },
    });
  }

  /**
   * Every message's one way out: through the SMTP server of `SMTP_URL` (unless `outboxOnly`), else as
   * an `.eml` file in the outbox named after its id. Resolves with the server's answer or the file's
   * path; throws when the server refuses. The Message-ID is the id, the same on every attempt.
   */
  private async deliver(message: {
    id: string;
    from: string | Address;
    to: Address;
    email: RenderedEmail;
    outboxOnly: boolean;
    /** What the outbox's log line says of the message (never a link: they carry capabilities). */
    log: Record<string, string>;
  }): Promise<string> {
    const mail = {
      from: message.from,
      to: message.to,
      subject: message.email.subject,
      text: message.email.text,
      html: message.email.html,
      messageId: `<${message.id}@${this.config.mail.domain}>`,
      // RFC 3834: automatic mail; auto-responders do not answer it.
      headers: { 'Auto-Submitted': 'auto-generated' },
    };
    if (this.config.mail.smtpUrl && !message.outboxOnly) {
      const info = (await this.smtpTransport().sendMail(mail)) as { response?: string };
      return info.response ?? 'accepted';
    }
    const info = (await this.outbox.sendMail(mail)) as { message: Buffer };
    const path = await this.writeOutbox(message.id, info.message);
    this.logger.log({ path, ...message.log }, `Email written to ${path}`);
    return path;
  }

  /** `MAIL_FROM` as given when it names a sender; a bare address takes the store's brand as its name. */
  private fromOf(brand: string): string | Address {
    const configured = this.config.mail.from;
    const name = brand.replace(/[\r\n]+/g, ' ');
    if (configured && /<[^>]+>/.test(configured)) return configured;
    return { name, address: configured ?? `no-reply@${this.config.mail.domain}` };
  }

  /** One pooled transport per process; the URL (with its credentials) is never logged. */
  private smtpTransport(): Transporter {
    this.smtp ??= createTransport({
      url: this.config.mail.smtpUrl,
      pool: true,
      maxConnections: 3,
      ...SMTP_TIMEOUTS,
      logger: false,
    });
    return this.smtp;
  }

  /**
   * Written whole or not at all (a hidden temporary name, then a rename); a retry overwrites its own file.
   * The temporary name starts with a dot so nothing reading the outbox by a message's name sees it half-written.
   *
   * The file of a few kilobytes is written synchronously, as pino writes its log lines: the
   * asynchronous path (a file handle, then open, write, close and rename as four trips through
   * libuv's thread pool, whose threads then contend for the directory) cost a receipt about 1 ms
   * more CPU than the two calls it makes here (docs/performance.md, eleventh round).
   */
  private async writeOutbox(id: string, raw: Buffer): Promise<string> {
    const directory = resolve(this.config.mail.outboxDir);
    // Made once per process (a failure is tried again by the next message).
    this.outboxReady ??= mkdir(directory, { recursive: true }).catch((error: unknown) => {
      this.outboxReady = undefined;
      throw error;
    });
    await this.outboxReady;
    const name = `${id.replace(/[^A-Za-z0-9._-]/g, '_')}.eml`;
    const path = join(directory, name);
    const partial = join(directory, `.${name}.${process.pid}.tmp`);
    try {
      writeFileSync(partial, raw);
    } catch (error) {
      // The directory went away since it was made: made again on the next message's try.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') this.outboxReady = undefined;
      throw error;
    }
    renameSync(partial, path);
    return path;
  }

  onApplicationShutdown(): void {
    this.smtp?.close();
  }
}
