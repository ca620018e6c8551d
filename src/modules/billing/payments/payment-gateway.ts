import type { IncomingHttpHeaders } from 'node:http';
import type { Cents } from '../../../common/money';

export const PAYMENT_METHODS = ['mpesa', 'emola'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export interface ChargeRequest {
  orderNumber: string;
  amount: Cents;
  currency: string;
  paymentMethod: PaymentMethod;
  paymentNumber: string;
  /** An automatic renewal charge of a subscription's saved method, without the customer at the page (decisions §11). */
  renewal?: boolean;
}

/**
 * `pending` is for gateways that confirm later through their callback (a USSD push the customer
 * accepts on the phone); the order then stays pending until the callback arrives.
 */
export interface ChargeResult {
  status: 'approved' | 'declined' | 'pending';
  transactionId: string;
}

/** What a verified gateway callback says about an order. */
export interface PaymentNotification {
  orderNumber: string;
  transactionId: string;
  status: 'approved' | 'declined';
}

/**
 * A payment provider (decisions §8). The sandbox implements it; M-Pesa and e-Mola adapters plug in
 * behind the same interface, selected by `PAYMENT_PROVIDER`.
 */
export interface PaymentGateway {
  /** The `{provider}` of `POST /v1/payments/{provider}/callback`. */
  readonly provider: string;
  charge(request: ChargeRequest): Promise<ChargeResult>;
  /** A transaction id for a checkout the customer cancelled before any charge. */
  cancellationTransactionId(): string;
  /** The callback's content when its signature over the exact raw body is valid, otherwise null. */
  verifyCallback(rawBody: Buffer, headers: IncomingHttpHeaders): PaymentNotification | null;
}

export const PAYMENT_GATEWAY = Symbol('PAYMENT_GATEWAY');
