import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, IsNull, LessThan } from 'typeorm';
import { EntityColumns } from '../../../database/entity-sql';
import { PaymentAttempt, PaymentAttemptStatus } from './payment-attempt.entity';

/** Final outcomes and `unknown`, as applied to an attempt. */
export type AttemptChanges = Partial<
  Pick<
    PaymentAttempt,
    'status' | 'transactionId' | 'gatewayReference' | 'redirectUrl' | 'errorCode' | 'errorMessage' | 'finishedAt'
  >
> & { updatedAt: Date };

@Injectable()
export class PaymentAttemptsRepository {
  /** The statements of the pay path, hand-written (entity-sql.ts): a payment runs each of them once or twice. */
  private readonly columns: EntityColumns<PaymentAttempt>;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.columns = new EntityColumns(dataSource, PaymentAttempt);
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

  /** Takes the refund of an attempt for this caller: false while another refund of it is with the gateway. */
  async claimRefund(id: number, now: Date, staleBefore: Date): Promise<boolean> {
    const result = await this.m()
      .createQueryBuilder()
      .update(PaymentAttempt)
      .set({ refundStartedAt: now })
      .where('id = :id AND refunded_at IS NULL AND (refund_started_at IS NULL OR refund_started_at < :staleBefore)', {
        id,
        staleBefore,
      })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  async releaseRefund(id: number): Promise<void> {
    await this.m().update(PaymentAttempt, { id }, { refundStartedAt: null });
  }

  async recordRefund(manager: EntityManager, id: number, now: Date, reference: string | null): Promise<void> {
    await manager.update(PaymentAttempt, { id }, { refundedAt: now, refundReference: reference, updatedAt: now });
  }
}
