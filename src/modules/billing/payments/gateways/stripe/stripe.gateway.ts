import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import type { IncomingHttpHeaders } from 'node:http';
import Stripe from 'stripe';
import { BadRequestError } from '../../../../../common/errors/app-error';
import { AppConfig } from '../../../../../config/app-config';
import { StripeConfig } from '../../../../../config/provider-config';
import { APP_CONFIG } from '../../../../../config/config.module';
import type {
  AttemptReference,
  CallbackNotification,
  ChargeRequest,
  GatewayOutcome,
  PaymentGateway,
  RefundLookup,
  RefundOutcome,
  RefundRequest,
} from '../../payment-gateway';
import { PaymentGatewayRegistry } from '../../payment-gateway.registry';

/** Currencies Stripe counts in whole units (no minor unit): https://docs.stripe.com/currencies#zero-decimal */
const ZERO_DECIMAL = new Set([
  'BIF',
  'CLP',
  'DJF',
  'GNF',
  'JPY',
  'KMF',
  'KRW',
  'MGA',
  'PYG',
  'RWF',
  'UGX',
  'VND',
  'VUV',
  'XAF',
  'XOF',
  'XPF',
]);
/** Stripe's shortest Checkout Session lifetime; reconciliation looks a session up after it. */
const SESSION_LIFETIME_MS = 30 * 60_000;

/** The amount in the currency's minor units, as Stripe takes it. */
export function stripeAmount(cents: number, currency: string): number {
  return ZERO_DECIMAL.has(currency.toUpperCase()) ? Math.round(cents / 100) : cents;
}

/**
 * Card payments through Stripe Checkout (README, *Taking payments*): one Checkout Session per attempt (the
 * attempt's reference as idempotency key, `metadata.order_number`, back to `{pay_url}` on success
 * or cancel), its outcome from the signed webhook at `POST /v1/payments/stripe/callback`, a lookup
 * of the session when no webhook came within 30 minutes, and refunds of the PaymentIntent.
 * Registered for `card` when `STRIPE_SECRET_KEY` is set.
 */
@Injectable()
export class StripeGateway implements PaymentGateway, OnModuleInit {
  readonly provider = 'stripe';
  readonly methods = ['card'];
  readonly chargesOffSession = false;
  readonly needsPaymentNumber = false;
  readonly lookupAfterMs = SESSION_LIFETIME_MS;
  private readonly settings: StripeConfig | undefined;
  private readonly stripe: Stripe | undefined;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly registry: PaymentGatewayRegistry,
  ) {
    this.settings = config.payments.stripe;
    if (this.settings) {
      const api = this.settings.apiUrl ? new URL(this.settings.apiUrl) : null;
      this.stripe = new Stripe(this.settings.secretKey, {
        maxNetworkRetries: 1,
        timeout: 30_000,
        ...(api
          ? {
              host: api.hostname,
              port: api.port || (api.protocol === 'https:' ? 443 : 80),
              protocol: api.protocol === 'https:' ? 'https' : 'http',
            }
          : {}),
      });
    }
  }

  onModuleInit(): void {
    if (this.settings) this.registry.register(this);
  }

  private get client(): Stripe {
    return this.stripe!;
  }

  async charge(request: ChargeRequest): Promise<GatewayOutcome> {
    if (request.offSession || !request.returnUrls) {
      return {
        status: 'failed',
        code: 'off_session_unsupported',
        message: 'Card renewals need the customer at the checkout.',
      };
    }
    const metadata = { order_number: request.orderNumber, attempt: request.reference };
    const session = await this.client.checkout.sessions.create(
      {
        mode: 'payment',
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: request.currency.toLowerCase(),
              unit_amount: stripeAmount(request.amount, request.currency),
              product_data: { name: request.description },
            },
          },
        ],
        client_reference_id: request.reference,
        metadata,
        payment_intent_data: { metadata },
        success_url: request.returnUrls.success,
        cancel_url: request.returnUrls.cancel,
        expires_at: Math.floor((Date.now() + SESSION_LIFETIME_MS + 60_000) / 1000),
      },
      { idempotencyKey: request.reference },
    );
    if (!session.url)
      return {
        status: 'unknown',
        code: 'no_url',
        message: 'Stripe gave no Checkout URL.',
        gatewayReference: session.id,
      };
    return { status: 'processing', redirectUrl: session.url, gatewayReference: session.id };
  }

  async lookup(attempt: AttemptReference): Promise<GatewayOutcome> {
    if (!attempt.gatewayReference)
      return { status: 'failed', code: 'no_session', message: 'No Checkout Session was created.' };
    const session = await this.client.checkout.sessions.retrieve(attempt.gatewayReference);
    return this.outcomeOf(session, null) ?? { status: 'processing' };
  }

  async refund(request: RefundRequest): Promise<RefundOutcome> {
    try {
      const refund = await this.client.refunds.create(
        // The request's reference, so that a refund whose answer was lost is found by it (lookupRefund).
        { payment_intent: request.transactionId, metadata: { request_reference: request.requestReference } },
        // One key per refund request: a retry of the request replays it, a new request is a new refund.
        { idempotencyKey: `refund-${request.requestReference}` },
      );
      if (refund.status === 'failed' || refund.status === 'canceled') {
        return {
          accepted: false,
          code: refund.failure_reason ?? refund.status,
          message: `Stripe refund ${refund.status}.`,
        };
      }
      return { accepted: true, reference: refund.id };
    } catch (error) {
      // Stripe refused it (an answer); a connection error is thrown on: the refund may have been made.
      if (error instanceof Stripe.errors.StripeError && !(error instanceof Stripe.errors.StripeConnectionError)) {
        return { accepted: false, code: error.code ?? error.type, message: error.message };
      }
      throw error;
    }
  }

  /**
   * A refund whose answer was lost: among the PaymentIntent's refunds as Stripe lists them, the one
   * this request made (its `metadata.request_reference`). Made and not failed or cancelled is a
   * refund; none, or one that failed, is none made. A refund the seller made in Stripe's dashboard is
   * not this request's: a new request then gets Stripe's own refusal.
   */
  async lookupRefund(request: RefundRequest): Promise<RefundLookup> {
    const refunds = await this.client.refunds.list({ payment_intent: request.transactionId, limit: 100 });
    const made = refunds.data.find((refund) => refund.metadata?.request_reference === request.requestReference);
    return made && made.status !== 'failed' && made.status !== 'canceled'
      ? { status: 'refunded', reference: made.id }
      : { status: 'not_refunded' };
  }

  /** The webhook, verified by the SDK over the exact raw body; a bad signature is a 400. */
  verifyCallback(rawBody: Buffer, headers: IncomingHttpHeaders): CallbackNotification | null {
    const signature = headers['stripe-signature'];
    let event: Stripe.Event;
    try {
      if (typeof signature !== 'string') throw new Error('no signature');
      event = this.client.webhooks.constructEvent(rawBody, signature, this.settings!.webhookSecret);
    } catch {
      throw new BadRequestError('Invalid signature.');
    }
    if (!event.type.startsWith('checkout.session.')) return { orderNumber: null, outcome: null };
    const session = event.data.object as Stripe.Checkout.Session;
    return {
      orderNumber: session.metadata?.order_number ?? null,
      attemptReference: session.metadata?.attempt ?? session.client_reference_id ?? undefined,
      outcome: this.outcomeOf(session, event.type),
    };
  }

  /**
   * Completed and paid → succeeded with the PaymentIntent id; expired or an
   * asynchronous payment that failed → failed; anything else is not an outcome yet.
   */
  private outcomeOf(
    session: Stripe.Checkout.Session,
    type: string | null,
  ): Extract<GatewayOutcome, { status: 'succeeded' | 'failed' }> | null {
    const paymentIntent =
      typeof session.payment_intent === 'string' ? session.payment_intent : (session.payment_intent?.id ?? null);
    if (type === 'checkout.session.async_payment_failed') {
      return {
        status: 'failed',
        code: 'async_payment_failed',
        message: 'The payment failed.',
        gatewayReference: session.id,
      };
    }
    if (session.status === 'complete' && session.payment_status === 'paid' && paymentIntent) {
      return { status: 'succeeded', transactionId: paymentIntent, gatewayReference: session.id };
    }
    if (session.status === 'expired') {
      return {
        status: 'failed',
        code: 'expired',
        message: 'The Checkout Session expired without a payment.',
        gatewayReference: session.id,
      };
    }
    return null;
  }
}
