import type { IncomingHttpHeaders } from 'node:http';
import type { Cents } from '../../../common/money';

/**
 * The public contract between the payments core and a payment gateway (README, *Taking payments*). A gateway is
 * a Nest provider in a module of its own that calls {@link PaymentGatewayRegistry.register} when it
 * is configured; core code never names one. Everything a gateway needs to know about an order comes
 * in these types, and everything it reports goes back through them.
 *
 * Rules every gateway follows:
 * - No method is called inside a database transaction or under a row lock: a gateway may take as
 *   long as its protocol allows (a customer typing a PIN), bounded by its own timeout.
 * - A refusal is an answer, not an exception: `charge` and `lookup` throw only when they cannot tell
 *   what happened (the core then treats the attempt as `unknown` and reconciles it).
 * - Secrets never appear in what a gateway returns (codes and messages are stored and shown to sellers).
 */
export interface PaymentGateway {
  /** The `{provider}` of `POST /v1/payments/{provider}/callback`, stored on each attempt (`mpesa`, `stripe`, …). */
  readonly provider: string;
  /** The checkout's `payment_method` values this gateway takes (`mpesa`, `card`, …). */
  readonly methods: readonly string[];
  /**
   * A fallback serves a method only while no other gateway does (the sandbox, README, *Configuration*). A
   * registry holding a fallback shows the "Test payment: no money moves" notice at the checkout.
   */
  readonly fallback?: boolean;
  /** False for gateways that collect the payer's details on their own page (cards): the form's number is optional. */
  readonly needsPaymentNumber: boolean;
  /**
   * False when the gateway cannot charge without the customer at its page (Stripe Checkout): a
   * subscription renewed through it is paid by the renewal's checkout link (billing README, `subscriptions/`).
   */
  readonly chargesOffSession?: boolean;
  /**
   * How long after its start an attempt still `processing` (no answer recorded, for instance
   * because the process died mid-call) is looked up by reconciliation. At least the gateway's own
   * timeout, so a call still in flight is not asked about.
   */
  readonly lookupAfterMs: number;

  /** Null when `paymentNumber` can be charged by this gateway, otherwise the 422 message of `payment_number`. */
  validatePaymentNumber?(paymentNumber: string): string | null;

  /** Starts (and for synchronous protocols finishes) a payment. */
  charge(request: ChargeRequest): Promise<GatewayOutcome>;

  /** Asks the gateway what became of an attempt with no final outcome (reconciliation). */
  lookup(attempt: AttemptReference): Promise<GatewayOutcome>;

  /**
   * Refunds a succeeded payment in full. Throws {@link GatewayUnreachableError} when nothing reached
   * the gateway (the refund is free to be asked again at once); any other throw (a timeout, a
   * connection lost after sending) means the gateway may have refunded: the refund stays claimed
   * until reconciliation asks {@link lookupRefund}.
   */
  refund(request: RefundRequest): Promise<RefundOutcome>;

  /**
   * Asks the gateway what became of a refund request whose answer was lost (by its
   * `requestReference`), at least ten minutes after it was sent. A gateway without it has such a
   * refund freed after those ten minutes, as if the gateway never got it.
   */
  lookupRefund?(request: RefundRequest): Promise<RefundLookup>;

  /**
   * Reads a callback at `POST /v1/payments/{provider}/callback`: its content when the gateway's
   * signature over the exact raw body is valid, otherwise null (401 `Invalid signature.`); a gateway
   * may throw an `AppError` of its own instead (Stripe answers 400).
   */
  verifyCallback?(rawBody: Buffer, headers: IncomingHttpHeaders): CallbackNotification | null;

  /** A transaction id for a checkout the customer cancelled before paying (README, *Taking payments*). */
  cancellationTransactionId?(): string;
}

export interface ChargeRequest {
  /** The attempt's own reference: unique per attempt, usable as an idempotency key or third-party reference. */
  reference: string;
  orderNumber: string;
  amount: Cents;
  /** ISO 4217, upper case. */
  currency: string;
  method: string;
  /** The customer's number as entered, or null for gateways that do not need one. */
  paymentNumber: string | null;
  /** What is bought, for the gateway's own page or statement. */
  description: string;
  /**
   * True for a renewal charged without the customer at the page (billing README, `subscriptions/`): a USSD push to the
   * saved number, a saved card off-session. A gateway that cannot do that answers `failed`.
   */
  offSession: boolean;
  /** Where a hosted payment page sends the customer back (on `{pay_url}`); null off-session. */
  returnUrls: { success: string; cancel: string } | null;
}

/** What a gateway knows about a payment. */
export type GatewayOutcome =
  | { status: 'succeeded'; transactionId: string; gatewayReference?: string }
  | { status: 'failed'; code: string; message: string; transactionId?: string; gatewayReference?: string }
  /** The gateway could not tell (timeout, lost connection, its own "try later"): reconciliation asks again. */
  | { status: 'unknown'; code: string; message: string; gatewayReference?: string }
  /** Not finished yet: the customer is on the gateway's page (`redirectUrl`) or still has to confirm. */
  | { status: 'processing'; redirectUrl?: string; gatewayReference?: string };

/** A recorded attempt, as a gateway sees it when it is asked about it again. */
export interface AttemptReference {
  reference: string;
  amount: Cents;
  currency: string;
  /** What the gateway returned as `gatewayReference` when the attempt started (a session id, …). */
  gatewayReference: string | null;
  transactionId: string | null;
  /** The number the buyer pays with, where the method takes one (M-Pesa, e-Mola). */
  paymentNumber: string | null;
  /** Charged without the buyer (a renewal on the last method), as `ChargeRequest.offSession`. */
  offSession: boolean;
  createdAt: Date;
}

export interface RefundRequest extends AttemptReference {
  /** The gateway's id of the payment to refund (M-Pesa transaction id, Stripe PaymentIntent id). */
  transactionId: string;
  /**
   * This refund request's own reference, new for each request and the same when it is looked up:
   * M-Pesa's third-party reference, Stripe's idempotency key.
   */
  requestReference: string;
}

export type RefundOutcome =
  { accepted: true; reference: string | null } | { accepted: false; code: string; message: string };

/** What a gateway knows of a refund request (reconciliation): made, never made, or not known yet. */
export type RefundLookup =
  | { status: 'refunded'; reference: string | null }
  | { status: 'not_refunded' }
  | { status: 'unknown'; message: string };

/** A verified callback. `outcome: null` acknowledges an event that changes nothing (another event type). */
export interface CallbackNotification {
  orderNumber: string | null;
  /** The attempt's reference when the gateway echoes it back; otherwise the order's open attempt is meant. */
  attemptReference?: string;
  outcome: Extract<GatewayOutcome, { status: 'succeeded' | 'failed' }> | null;
}

/** Thrown by a gateway's `refund` when the provider could not be reached: nothing was sent to it. */
export class GatewayUnreachableError extends Error {}
