import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import type { DomainEvent } from '../../common/events/domain-event';
import { DomainEvents } from '../../common/events/domain-events';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { ChannelResult, NotificationChannel, NotificationChannels } from './channels/notification-channel';
import { CUSTOMER_MESSAGE_EVENT_TYPES, messageRequestOf } from './messages/customer-message';
import { CustomerMessageComposer } from './messages/customer-message.composer';
import { CustomerMessagesRepository } from './messages/customer-messages.repository';

/** Keep trying a refused message for about a day. */
const RETRY_HOURS = 24;
/** A job (and a message's claim) running longer than this counts as crashed; above the SMTP timeouts. */
const JOB_EXPIRE_SECONDS = 180;

/**
 * Retries of pg-boss's back-off (the n-th waits between d·2^(n-1) and d·2^n seconds) whose
 * expected total first reaches `hours`: 10 for the default 60 s, the last about a day after the
 * first attempt.
 */
export function retryLimitFor(delaySeconds: number, hours = RETRY_HOURS): number {
  return Math.min(20, Math.ceil(Math.log2((hours * 3600) / (1.5 * delaySeconds) + 1)));
}

/**
 * The customer messages (README, *Customer emails*), sent after the change commits from the durable queue
 * `event:customer-emails` (one job per event, retried with back-off): never inside a checkout or an
 * API request, and a broken mail server only delays its own jobs.
 *
 * Once per message and channel: each (channel, kind, ref) has a row that is claimed before the
 * send and marked `sent` after the provider accepted it; a retried or duplicate job finds it sent
 * and sends nothing. A worker that dies between the provider's acceptance and that mark leaves the
 * claim to run out, and the message is sent again with the same Message-ID (at least once beats
 * never for a receipt; mail systems and clients dedupe on the Message-ID).
 */
@Injectable()
export class CustomerMessagesListener implements OnModuleInit {
  private readonly logger = new Logger('CustomerEmails');

  constructor(
    private readonly events: DomainEvents,
    private readonly channels: NotificationChannels,
    private readonly messages: CustomerMessagesRepository,
    private readonly composer: CustomerMessageComposer,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    const delay = this.config.mail.retryDelaySeconds;
    this.events.afterCommit('customer-emails', CUSTOMER_MESSAGE_EVENT_TYPES, (event) => this.handle(event), {
      retryLimit: retryLimitFor(delay),
      retryDelaySeconds: delay,
      retryBackoff: true,
      expireInSeconds: JOB_EXPIRE_SECONDS,
      // Four at once, as many as the SMTP transport's three connections can use. In a burst of
      // payments the receipts then fall behind for a while (they are claimed, read and recorded a
      // fetch at a time, one statement per step) and leave the CPU to the payments and the webhook
      // deliveries, whose timing the contract states: at 16, receipts took half of a busy process
      // and a delivery came 1.3 s after the last approval instead of 0.8 s (docs/performance.md,
      // eleventh round).
      concurrency: 4,
    });
  }

  async handle(event: DomainEvent): Promise<void> {
    const request = messageRequestOf(event);
    if (!request) return;
    const claimed: Array<{ channel: NotificationChannel; id: number }> = [];
    for (const channel of this.channels.all()) {
      const claim = await this.messages.claim(channel.name, request, event, JOB_EXPIRE_SECONDS);
      if (claim) claimed.push({ channel, id: claim.id });
    }
    // Sent or skipped already, or in another worker's hands (whose own job retries it if it fails).
    if (!claimed.length) return;

    const composed = await this.composer.compose(request, event).catch(async (error: unknown) => {
      for (const { id } of claimed) await this.messages.settle(id, { state: 'failed', error: errorText(error) });
      throw error;
    });
    if ('skip' in composed) {
      for (const { id } of claimed) await this.messages.settle(id, { state: 'skipped', detail: composed.skip });
      return;
    }
    const failures: unknown[] = [];
    for (const { channel, id } of claimed) {
      let result: ChannelResult;
      try {
        result = await channel.send(composed.message);
      } catch (error) {
        await this.messages.settle(id, { state: 'failed', error: errorText(error) });
        this.logger.warn(
          { channel: channel.name, message: composed.message.id, err: errorText(error) },
          'Customer message not accepted; it will be retried',
        );
        failures.push(error);
        continue;
      }
      // Outside the try: once the provider accepted, a failure to record it must not count as a refusal.
      await this.messages.settle(
        id,
        result.outcome === 'sent'
          ? {
              state: 'sent',
              // What the channel reached (a phone number, a chat); an email address unless it says.
              recipient: result.recipient ?? composed.message.customer.email,
              detail: result.detail ?? 'sent',
            }
          : { state: 'skipped', detail: result.reason },
      );
    }
    // The job fails and pg-boss retries it: the sent channels are not sent again.
    if (failures.length)
      throw failures.length === 1
        ? failures[0]
        : new AggregateError(failures, 'Customer message not accepted by several channels');
  }
}

/** The error as recorded: its message only (a transport's error never includes its URL's credentials). */
function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
