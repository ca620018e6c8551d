import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { randomBase62 } from '../../../../../common/crypto';
import { BadRequestError, FieldErrors, ValidationError } from '../../../../../common/errors/app-error';
import { AppConfig } from '../../../../../config/app-config';
import { APP_CONFIG } from '../../../../../config/config.module';
import type {
  AttemptReference,
  CallbackNotification,
  ChargeRequest,
  GatewayOutcome,
  PaymentGateway,
  RefundLookup,
  RefundOutcome,
} from '../../payment-gateway';
import { PaymentGatewayRegistry } from '../../payment-gateway.registry';

export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature';

/** `sha256=<hex HMAC-SHA256 of the raw body>` with `PAYMENT_SANDBOX_SECRET`. */
export function signSandboxCallback(secret: string, rawBody: Buffer | string): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}

/**
 * The test gateway (README, *Taking payments*; billing README, `subscriptions/`): a payment number ending in `0002` is declined; one ending
 * in `0003` is approved on a first payment and declined on every renewal (off-session charge); any
 * other is approved at once. It serves `mpesa` and `emola` while no real gateway does. Callbacks
 * carry `{order_number, transaction_id, status}` signed as {@link signSandboxCallback} in the
 * `X-Sandbox-Signature` header. Refunds are always accepted. It is also the gateway of every test
 * mode order, in production too (README, *Test mode*).
 */
@Injectable()
export class SandboxGateway implements PaymentGateway, OnModuleInit {
  readonly provider = 'sandbox';
  readonly methods = ['mpesa', 'emola'];
  readonly fallback = true;
  readonly needsPaymentNumber = true;
  readonly lookupAfterMs = 60_000;
  private readonly secret: string;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly registry: PaymentGatewayRegistry,
  ) {
    this.secret = config.payments.sandboxSecret;
  }

  /** Test mode always pays here (README, *Test mode*); live payments only while `PAYMENT_SANDBOX` is on. */
  onModuleInit(): void {
    this.registry.registerTest(this);
    if (this.config.payments.sandbox) this.registry.register(this);
  }

  charge(request: ChargeRequest): Promise<GatewayOutcome> {
    return Promise.resolve(this.decide(request.paymentNumber ?? '', request.offSession));
  }

  /**
   * The sandbox answers at once, so an attempt left open means the process died mid-call: it is
   * settled as the charge would have answered it, by the same numbers (a `0002` number declined).
   */
  lookup(attempt: AttemptReference): Promise<GatewayOutcome> {
    const outcome = this.decide(attempt.paymentNumber ?? '', attempt.offSession);
    return Promise.resolve(attempt.transactionId ? { ...outcome, transactionId: attempt.transactionId } : outcome);
  }

  refund(): Promise<RefundOutcome> {
    return Promise.resolve({ accepted: true, reference: this.newTransactionId() });
  }

  /** No money moves and the sandbox keeps nothing: a refund whose answer was lost is free to be asked again. */
  lookupRefund(): Promise<RefundLookup> {
    return Promise.resolve({ status: 'not_refunded' });
  }

  cancellationTransactionId(): string {
    return this.newTransactionId();
  }

  verifyCallback(rawBody: Buffer, headers: IncomingHttpHeaders): CallbackNotification | null {
    const given = headers[SANDBOX_SIGNATURE_HEADER];
    if (typeof given !== 'string') return null;
    const expected = Buffer.from(signSandboxCallback(this.secret, rawBody));
    const actual = Buffer.from(given);
    if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return null;
    // Signed by the holder of the secret, so what is wrong now is the body, not the signature.
    let body: unknown;
    try {
      body = JSON.parse(rawBody.toString('utf8'));
    } catch {
      throw new BadRequestError('Malformed JSON body.');
    }
    const b = (body ?? {}) as Record<string, unknown>;
    const errors: FieldErrors = {};
    if (typeof b.order_number !== 'string') errors.order_number = ['order_number must be a string.'];
    if (typeof b.transaction_id !== 'string') errors.transaction_id = ['transaction_id must be a string.'];
    if (b.status !== 'approved' && b.status !== 'declined')
      errors.status = ['status must be one of: approved, declined.'];
    if (typeof b.order_number !== 'string' || typeof b.transaction_id !== 'string' || Object.keys(errors).length)
      throw new ValidationError(errors);
    return {
      orderNumber: b.order_number,
      outcome:
        b.status === 'approved'
          ? { status: 'succeeded', transactionId: b.transaction_id }
          : {
              status: 'failed',
              code: 'declined',
              message: 'Declined by the sandbox.',
              transactionId: b.transaction_id,
            },
    };
  }

  private decide(paymentNumber: string, offSession: boolean): GatewayOutcome {
    const transactionId = this.newTransactionId();
    if (paymentNumber.endsWith('0002'))
      return { status: 'failed', code: 'declined', message: 'Declined by the sandbox.', transactionId };
    if (offSession && paymentNumber.endsWith('0003')) {
      return { status: 'failed', code: 'declined', message: 'Renewal declined by the sandbox.', transactionId };
    }
    return { status: 'succeeded', transactionId };
  }

  private newTransactionId(): string {
    return `sbx_${randomBase62(20)}`;
  }
}
