import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { JobQueue, QueueOptions } from '../jobs/job-queue';
import type { DomainEvent } from './domain-event';

/** `'*'` for every event type. */
export type EventTypes = readonly string[] | '*';

/** Runs inside the transaction of the change: for writing an outbox only (no network, no waiting). */
export type InTransactionHandler = (event: DomainEvent, manager: EntityManager) => Promise<void>;

/** Runs after the change committed, from a durable job: retried on error, so it must be idempotent. */
export type AfterCommitHandler = (event: DomainEvent) => Promise<void>;

interface AfterCommitListener {
  queue: string;
  types: EventTypes;
}

const matches = (types: EventTypes, type: string) => types === '*' || types.includes(type);

/**
 * The two hooks of a domain event.
 *
 * - `inTransaction`: the handler runs in the transaction that makes the change and its error rolls
 *   the change back. It is for outbox rows (the webhook notifier) and for another module's own rows
 *   that must change with the event or not at all (discounts dropping a deleted product's id): local
 *   statements only, never a network call or a wait. The events of one `publishAll` reach it
 *   concurrently, so it must not read what its call for another event writes.
 * - `afterCommit`: everything else (emails, chat notifications, analytics). Publishing inserts one
 *   pg-boss job per listener in the same transaction, so a committed event reaches every listener
 *   even if the process dies at once; the job runs after commit on one process, is retried with
 *   back-off when the handler throws, and each failure is logged. Handlers get the event's `id` to
 *   do their work once.
 *
 * Register from a provider's `onModuleInit`. Types are strings so that a plugin can publish and
 * listen to kinds of its own.
 */
@Injectable()
export class DomainEvents {
  private readonly inTransactionHandlers: { types: EventTypes; handler: InTransactionHandler }[] = [];
  private readonly afterCommitListeners: AfterCommitListener[] = [];

  constructor(private readonly jobs: JobQueue) {}

  /**
   * `first`: the handler runs before those registered without it. For one that locks rows which other
   * transactions lock before the rows another handler changes (billing's orders, locked ahead of
   * discounts' rows on a product's deletion, as a payment locks its order before its coupon).
   */
  inTransaction(types: EventTypes, handler: InTransactionHandler, options: { first?: boolean } = {}): void {
    if (options.first) this.inTransactionHandlers.unshift({ types, handler });
    else this.inTransactionHandlers.push({ types, handler });
  }

  /** `name` names the listener's durable queue (`event:<name>`); keep it stable across releases. */
  afterCommit(name: string, types: EventTypes, handler: AfterCommitHandler, options: QueueOptions = {}): void {
    const queue = `event:${name}`;
    this.jobs.define<DomainEvent>(queue, (event) => handler(event), options);
    this.afterCommitListeners.push({ queue, types });
  }

  /** Records `event` in the transaction of `manager`: outbox handlers now, after-commit jobs queued. */
  publish(event: DomainEvent, manager: EntityManager): Promise<void> {
    return this.publishAll([event], manager);
  }

  /**
   * `publish` of several events of one transaction (the orders of a group of payments). Each
   * outbox handler gets them at once, one call per event, concurrently: their statements go out
   * pipelined on the transaction's connection (database options), and those made together can go
   * as one (`TransactionBatch`).
   */
  async publishAll(events: DomainEvent[], manager: EntityManager): Promise<void> {
    for (const { types, handler } of this.inTransactionHandlers) {
      await Promise.all(events.filter((event) => matches(types, event.type)).map((event) => handler(event, manager)));
    }
    for (const event of events) {
      for (const { queue, types } of this.afterCommitListeners) {
        if (matches(types, event.type)) await this.jobs.send(queue, event, { manager, singletonKey: event.id });
      }
    }
  }
}
