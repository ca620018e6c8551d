import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { batchOrEachAlone, turnLoader } from '../../../database/batch';
import { DataSource, EntityManager, In, IsNull, LessThan } from 'typeorm';
import { EntityColumns } from '../../../database/entity-sql';
import { PreparedStatement } from '../../../database/prepared-statements';
import { OrderBumpItem } from '../orders/order-bump-item.entity';
import { Order } from '../orders/order.entity';
import { PaymentAttempt, PaymentAttemptStatus } from './payment-attempt.entity';

/** Final outcomes and `unknown`, as applied to an attempt. */
export type AttemptChanges = Partial<
  Pick<
    PaymentAttempt,
    'status' | 'transactionId' | 'gatewayReference' | 'redirectUrl' | 'errorCode' | 'errorMessage' | 'finishedAt'
  >
> & { updatedAt: Date };

/** What a final outcome (succeeded or failed) sets on its attempt; `finishedAt` is its `updated_at` too. */
export type FinalAttemptChanges = Required<Omit<AttemptChanges, 'redirectUrl' | 'updatedAt'>>;

/** The new attempt of a claim, as the checkout's pay form asks for it. */
export interface AttemptClaim {
  reference: string;
  method: string;
  provider: string;
  paymentNumber: string | null;
  offSession: boolean;
  at: Date;
}

@Injectable()
export class PaymentAttemptsRepository {
  /** The statements of the pay path, hand-written (entity-sql.ts): a payment runs each of them once or twice. */
  private readonly columns: EntityColumns<PaymentAttempt>;

  private readonly orders: EntityColumns<Order>;
  private readonly claimStatement: PreparedStatement;
  private readonly settleStatement: PreparedStatement;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    const attempts = (this.columns = new EntityColumns(dataSource, PaymentAttempt));
    const orders = (this.orders = new EntityColumns(dataSource, Order));
    const bumps = new EntityColumns(dataSource, OrderBumpItem);
    // The order is locked first in both, as every transaction that changes an order or its
    // attempts takes them: no lock-order inversion with a concurrent claim or outcome.
    const hasBumps = `EXISTS (SELECT 1 FROM ${bumps.table} b WHERE b."order_id" = o."id")`;
    // The claims of one turn of the event loop (a burst of checkouts) in one statement: their
    // orders locked in id order, as `settle` locks them. Two claims of one order in a burst: the
    // partial unique index lets one attempt in, the other finds the order's attempt processing.
    this.claimStatement = new PreparedStatement(
      dataSource,
      `WITH v AS (SELECT * FROM unnest($1::int[], $2::varchar[], $3::varchar[], $4::varchar[], $5::varchar[], ` +
        `$6::boolean[], $7::timestamptz[]) ` +
        `AS v("order_id", "reference", "method", "provider", "payment_number", "off_session", "at")), ` +
        `o AS (SELECT * FROM ${orders.table} WHERE "id" = ANY($1) ORDER BY "id" FOR UPDATE), ` +
        `a AS (INSERT INTO ${attempts.table} ("reference", "order_id", "store_id", "method", "provider", "amount", ` +
        `"currency", "payment_number", "status", "off_session", "created_at", "updated_at") ` +
        `SELECT v."reference", o."id", o."store_id", v."method", v."provider", o."amount", o."currency", ` +
        `v."payment_number", 'processing', v."off_session", v."at", v."at" ` +
        `FROM v JOIN o ON o."id" = v."order_id" WHERE o."status" = 'pending' AND NOT ${hasBumps} ` +
        `ON CONFLICT ("order_id") WHERE "status" = 'processing' DO NOTHING RETURNING *) ` +
        `SELECT v."reference" AS "claim", ${orders.select('o')}, ${attempts.select('a')} ` +
        `FROM v JOIN o ON o."id" = v."order_id" LEFT JOIN a ON a."reference" = v."reference"`,
    );
    // The orders of every outcome locked in id order (as any two transactions that lock several
    // take them: no deadlock between two groups), then each attempt changed only from one of
    // `from`; the attempts' UPDATE joins `o`, so no attempt changes before its order is locked.
    this.settleStatement = new PreparedStatement(
      dataSource,
      `WITH v AS (SELECT * FROM unnest($1::int[], $2::int[], $4::varchar[], $5::varchar[], $6::varchar[], ` +
        `$7::varchar[], $8::text[], $9::timestamptz[]) ` +
        `AS v("order_id", "attempt_id", "status", "transaction_id", "gateway_reference", "error_code", "error_message", "at")), ` +
        `o AS (SELECT * FROM ${orders.table} WHERE "id" = ANY($1) ORDER BY "id" FOR UPDATE), ` +
        `a AS (UPDATE ${attempts.table} p SET "status" = v."status", "transaction_id" = v."transaction_id", ` +
        `"gateway_reference" = v."gateway_reference", "redirect_url" = NULL, "error_code" = v."error_code", ` +
        `"error_message" = v."error_message", "finished_at" = v."at", "updated_at" = v."at" ` +
        `FROM v JOIN o ON o."id" = v."order_id" WHERE p."id" = v."attempt_id" AND p."order_id" = v."order_id" ` +
        `AND p."status" = ANY($3) RETURNING p.*) ` +
        `SELECT ${orders.select('o')}, ${hasBumps} AS "has_bumps", ` +
        `${attempts.select('a')} FROM o LEFT JOIN a ON a."order_id" = o."id"`,
    );
  }

  /**
   * A checkout's payment claimed in one statement, without a transaction's round trips: the
   * order locked, and a `processing` attempt inserted for its amount while it is pending, has
   * no order bumps and no other attempt processing. `attempt` is null when one of those stopped
   * it; null in all when there is no such order.
   */
  claimWithoutBumps(
    orderId: number,
    claim: AttemptClaim,
  ): Promise<{ order: Order; attempt: PaymentAttempt | null } | null> {
    return this.claims.load({ orderId, claim });
  }

  private readonly claims = turnLoader<
    { orderId: number; claim: AttemptClaim },
    { order: Order; attempt: PaymentAttempt | null } | null
  >((keys) =>
    batchOrEachAlone(keys, async (asked) => {
      const column = <T>(pick: (claim: AttemptClaim) => T) => asked.map((a) => pick(a.claim));
      const rows = await this.claimStatement.rows([
        asked.map((a) => a.orderId),
        column((c) => c.reference),
        column((c) => c.method),
        column((c) => c.provider),
        column((c) => c.paymentNumber),
        column((c) => c.offSession),
        column((c) => c.at),
      ]);
      const byReference = new Map(rows.map((row) => [row.claim as string, row]));
      return asked.map(({ claim }) => {
        const row = byReference.get(claim.reference);
        if (!row) return null;
        return {
          order: this.orders.hydrateTracked(row, 'o_'),
          attempt: row.a_id === null ? null : this.columns.hydrateTracked(row, 'a_'),
        };
      });
    }),
  );

  /**
   * Final outcomes applied, in one statement for all of them: their orders locked, then each
   * attempt changed only from one of `from` (as `change`). One answer per outcome, in order:
   * `attempt` is null when another outcome won; the answer is null when there is no such order.
   * `hasBumps`: whether the order has bump items (the approval's hooks read them only then). At
   * most one outcome per order.
   */
  async settle(
    manager: EntityManager,
    from: PaymentAttemptStatus[],
    outcomes: Array<{ orderId: number; attemptId: number; changes: FinalAttemptChanges }>,
  ): Promise<Array<{ order: Order; hasBumps: boolean; attempt: PaymentAttempt | null } | null>> {
    const column = <T>(pick: (changes: FinalAttemptChanges) => T) => outcomes.map((o) => pick(o.changes));
    const rows = await this.settleStatement.rows(
      [
        outcomes.map((o) => o.orderId),
        outcomes.map((o) => o.attemptId),
        from,
        column((c) => c.status),
        column((c) => c.transactionId),
        column((c) => c.gatewayReference),
        column((c) => c.errorCode),
        column((c) => c.errorMessage),
        column((c) => c.finishedAt),
      ],
      manager,
    );
    const byOrder = new Map(rows.map((row) => [row.o_id as number, row]));
    return outcomes.map(({ orderId }) => {
      const row = byOrder.get(orderId);
      if (!row) return null;
      return {
        order: this.orders.hydrateTracked(row, 'o_'),
        hasBumps: row.has_bumps === true,
        attempt: row.a_id === null ? null : this.columns.hydrateTracked(row, 'a_'),
      };
    });
  }

  private m(manager?: EntityManager): EntityManager {
    return manager ?? this.dataSource.manager;
  }

  /** Inserts a new attempt; null when the order already has a `processing` one (the partial unique index). */
  insertProcessing(manager: EntityManager, values: Partial<PaymentAttempt>): Promise<PaymentAttempt | null> {
    return this.columns.insertUnless(
      manager,
      { ...values, status: 'processing' },
      `("order_id") WHERE "status" = 'processing'`,
    );
  }

  /**
   * The one way an attempt changes: only from one of `from`, so of two outcomes arriving together
   * (the gateway's answer, its callback, reconciliation) exactly one applies. Null when another won;
   * else the attempt as changed, its row locked by the UPDATE until the transaction ends.
   */
  async change(
    manager: EntityManager,
    id: number,
    from: PaymentAttemptStatus[],
    changes: AttemptChanges,
  ): Promise<PaymentAttempt | null> {
    const [changed] = await this.columns.updateWhere(manager, changes, {
      key: 'change',
      condition: '"id" = $1 AND "status" = ANY($2)',
      params: [id, from],
    });
    return changed ?? null;
  }

  findByReference(reference: string, manager?: EntityManager): Promise<PaymentAttempt | null> {
    return this.columns.findOneBy({ reference }, manager);
  }

  findById(id: number, manager?: EntityManager): Promise<PaymentAttempt | null> {
    return this.columns.findOneBy({ id }, manager);
  }

  findProcessingOfOrder(orderId: number, manager?: EntityManager): Promise<PaymentAttempt | null> {
    return this.columns.findOneBy({ orderId, status: 'processing' }, manager);
  }

  /** Whether a payment of the order is still to be answered (an attempt processing or unknown). */
  isPaying(orderId: number, manager?: EntityManager): Promise<boolean> {
    return this.anyPaying([orderId], manager);
  }

  /** `isPaying` of any of the orders. */
  async anyPaying(orderIds: number[], manager?: EntityManager): Promise<boolean> {
    if (!orderIds.length) return false;
    return this.m(manager).exists(PaymentAttempt, {
      where: { orderId: In(orderIds), status: In(['processing', 'unknown']) },
    });
  }

  /** The order's newest attempt still open (processing or unknown) with this provider. */
  findOpenOfOrder(orderId: number, provider: string, manager?: EntityManager): Promise<PaymentAttempt | null> {
    return this.m(manager).findOne(PaymentAttempt, {
      where: { orderId, provider, status: In(['processing', 'unknown']) },
      order: { createdAt: 'DESC', id: 'DESC' },
    });
  }

  latestOfOrder(orderId: number): Promise<PaymentAttempt | null> {
    return this.m().findOne(PaymentAttempt, { where: { orderId }, order: { createdAt: 'DESC', id: 'DESC' } });
  }

  /** The payment a refund gives back: the order's succeeded attempt not refunded yet. */
  findRefundable(orderId: number): Promise<PaymentAttempt | null> {
    return this.m().findOne(PaymentAttempt, {
      where: { orderId, status: 'succeeded', refundedAt: IsNull() },
      order: { createdAt: 'DESC', id: 'DESC' },
    });
  }

  /** Open attempts started before `before`, oldest first (reconciliation). */
  findOpenStartedBefore(before: Date, limit: number): Promise<PaymentAttempt[]> {
    return this.m().find(PaymentAttempt, {
      where: { status: In(['processing', 'unknown']), createdAt: LessThan(before) },
      order: { createdAt: 'ASC', id: 'ASC' },
      take: limit,
    });
  }

  /**
   * Takes the refund of an attempt for this caller under a new request reference: false while another
   * refund of it is with the gateway or waits for reconciliation.
   */
  async claimRefund(id: number, now: Date, requestReference: string): Promise<boolean> {
    const result = await this.m()
      .createQueryBuilder()
      .update(PaymentAttempt)
      .set({ refundStartedAt: now, refundRequestReference: requestReference })
      .where('id = :id AND refunded_at IS NULL AND refund_started_at IS NULL', { id })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  /**
   * Frees the refund claimed under `requestReference` (a refusal, or nothing done at the gateway);
   * null for a claim made before requests had references.
   */
  async releaseRefund(id: number, requestReference: string | null): Promise<void> {
    await this.m()
      .createQueryBuilder()
      .update(PaymentAttempt)
      .set({ refundStartedAt: null })
      .where('id = :id AND refunded_at IS NULL AND refund_request_reference IS NOT DISTINCT FROM :requestReference', {
        id,
        requestReference,
      })
      .execute();
  }

  /**
   * Refunds claimed before `before` and never settled, the least recently asked about first
   * (reconciliation: `markRefundAsked` moves one to the back), so a refund the gateway cannot tell
   * of yet never keeps the others from being asked.
   */
  findRefundsClaimedBefore(before: Date, limit: number): Promise<PaymentAttempt[]> {
    return this.m().find(PaymentAttempt, {
      where: { refundedAt: IsNull(), refundStartedAt: LessThan(before) },
      order: { updatedAt: 'ASC', id: 'ASC' },
      take: limit,
    });
  }

  /** The refund claim was asked about at `now` and is still open. */
  async markRefundAsked(id: number, now: Date): Promise<void> {
    await this.m().update(PaymentAttempt, { id, refundedAt: IsNull() }, { updatedAt: now });
  }

  /** Records the gateway's refund of the claim `requestReference`: false when it was recorded already. */
  async recordRefund(
    manager: EntityManager,
    id: number,
    requestReference: string,
    now: Date,
    reference: string | null,
  ): Promise<boolean> {
    const result = await manager
      .createQueryBuilder()
      .update(PaymentAttempt)
      .set({ refundedAt: now, refundReference: reference, updatedAt: now })
      .where('id = :id AND refunded_at IS NULL AND refund_request_reference = :requestReference', {
        id,
        requestReference,
      })
      .execute();
    return (result.affected ?? 0) > 0;
  }
}
