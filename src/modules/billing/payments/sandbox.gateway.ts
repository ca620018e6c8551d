import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { randomBase62 } from '../../../common/crypto';
import { ChargeRequest, ChargeResult, PaymentGateway, PaymentNotification } from './payment-gateway';

export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature';

/** `sha256=<hex HMAC-SHA256 of the raw body>` with `PAYMENT_SANDBOX_SECRET`. */
export function signSandboxCallback(secret: string, rawBody: Buffer | string): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}

/**
 * The default gateway (decisions §8): a payment number ending in `0002` is declined, any other is
 * approved at once; one ending in `0003` is declined on automatic renewal charges (decisions §11). Callbacks carry `{order_number, transaction_id, status}` signed as
 * {@link signSandboxCallback} in the `X-Sandbox-Signature` header.
 */
export class SandboxGateway implements PaymentGateway {
  readonly provider = 'sandbox';

  constructor(private readonly secret: string) {}

  charge(request: ChargeRequest): Promise<ChargeResult> {
    // decisions §11: a number ending in 0003 pays the first time and is declined on every renewal.
    const declined = request.paymentNumber.endsWith('0002') || (request.renewal === true && request.paymentNumber.endsWith('0003'));
    return Promise.resolve({ status: declined ? 'declined' : 'approved', transactionId: this.newTransactionId() });
  }

  cancellationTransactionId(): string {
    return this.newTransactionId();
  }

  verifyCallback(rawBody: Buffer, headers: IncomingHttpHeaders): PaymentNotification | null {
    const given = headers[SANDBOX_SIGNATURE_HEADER];
    if (typeof given !== 'string') return null;
    const expected = Buffer.from(signSandboxCallback(this.secret, rawBody));
    const actual = Buffer.from(given);
    if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return null;
    let body: unknown;
    try {
      body = JSON.parse(rawBody.toString('utf8'));
    } catch {
      return null;
    }
    const b = body as Record<string, unknown>;
    if (typeof b.order_number !== 'string' || typeof b.transaction_id !== 'string') return null;
    if (b.status !== 'approved' && b.status !== 'declined') return null;
    return { orderNumber: b.order_number, transactionId: b.transaction_id, status: b.status };
  }

  private newTransactionId(): string {
    return `sbx_${randomBase62(20)}`;
  }
}
