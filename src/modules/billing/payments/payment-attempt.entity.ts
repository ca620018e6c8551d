import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Cents, centsColumn } from '../../../common/money';

export type PaymentAttemptStatus = 'processing' | 'succeeded' | 'failed' | 'unknown';
export const PAYMENT_ATTEMPT_STATUSES: PaymentAttemptStatus[] = ['processing', 'succeeded', 'failed', 'unknown'];

/**
 * One press of "Pay" (or one renewal charge): (README, *Taking payments*). `processing` → `succeeded` | `failed`
 * | `unknown`, and `unknown` → `succeeded` | `failed` by reconciliation. Whichever outcome is applied
 * first wins: every change is a conditional UPDATE on the status.
 */
@Entity('payment_attempts')
@Index(['orderId', 'createdAt'])
// One `processing` attempt per order, whatever races.
@Index('UQ_payment_attempts_processing_order', ['orderId'], { unique: true, where: `"status" = 'processing'` })
// Reconciliation reads the open attempts only.
@Index('IDX_payment_attempts_open', ['createdAt'], { where: `"status" IN ('processing', 'unknown')` })
// Refunds claimed and not settled, the least recently asked first (reconciliation, PaymentReconciler).
@Index('IDX_payment_attempts_refund_claims', ['updatedAt'], {
  where: `"refund_started_at" IS NOT NULL AND "refunded_at" IS NULL`,
})
export class PaymentAttempt {
  @PrimaryGeneratedColumn()
  id: number;

  /** Unique per attempt and unguessable: the gateway's third-party reference or idempotency key. */
  @Index({ unique: true })
  @Column({ type: 'varchar', length: 32 })
  reference: string;

  @Column()
  orderId: number;

  @Column()
  storeId: number;

  @Column({ type: 'varchar', length: 32 })
  method: string;

  @Column({ type: 'varchar', length: 32 })
  provider: string;

  @Column({ type: 'numeric', precision: 12, scale: 2, transformer: centsColumn })
  amount: Cents;

  @Column({ type: 'char', length: 3 })
  currency: string;

  @Column({ type: 'varchar', length: 32, nullable: true })
  paymentNumber: string | null;

  @Column({ type: 'varchar', length: 16 })
  status: PaymentAttemptStatus;

  /** A renewal charged without the customer (billing README, `subscriptions/`): a failure leaves the order pending. */
  @Column({ default: false })
  offSession: boolean;

  /**
   * The gateway's id of the payment (`output_TransactionID`, a PaymentIntent id); once the attempt
   * ends, one of its own where the gateway gave none (a decline: {@link transactionIdOf}).
   */
  @Column({ type: 'varchar', length: 255, nullable: true })
  transactionId: string | null;

  /** The gateway's own handle on the attempt (a Checkout Session id, a conversation id). */
  @Column({ type: 'varchar', length: 255, nullable: true })
  gatewayReference: string | null;

  /** The gateway's page the customer was sent to, while the attempt is processing. */
  @Column({ type: 'text', nullable: true })
  redirectUrl: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  errorCode: string | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  errorMessage: string | null;

  /**
   * Set while a refund is with the gateway (so two refunds never both call it), cleared on refusal;
   * one whose outcome is unknown stays set until reconciliation asks the gateway (README, *Taking payments*).
   */
  @Column({ type: 'timestamptz', nullable: true })
  refundStartedAt: Date | null;

  /** The refund request's own reference, new per claim: what the gateway is asked about it by (`lookupRefund`). */
  @Column({ type: 'varchar', length: 64, nullable: true })
  refundRequestReference: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  refundedAt: Date | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  refundReference: string | null;

  /** Set from the application's clock (not the database's), so reconciliation deadlines follow it. */
  @Column({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz' })
  updatedAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  finishedAt: Date | null;
}

/**
 * The transaction id an ended attempt has, and gives its order: every attempt, approved or declined,
 * has one (README, *Taking payments*). The gateway's when it gave one, else `{provider}_{reference}`.
 */
export function transactionIdOf(attempt: Pick<PaymentAttempt, 'transactionId' | 'provider' | 'reference'>): string {
  return attempt.transactionId ?? `${attempt.provider}_${attempt.reference}`;
}
