import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { randomBase62 } from '../../../../../common/crypto';
import { AppConfig } from '../../../../../config/app-config';
import { MpesaConfig } from '../../../../../config/provider-config';
import { APP_CONFIG } from '../../../../../config/config.module';
import type {
  AttemptReference,
  ChargeRequest,
  GatewayOutcome,
  PaymentGateway,
  RefundLookup,
  RefundOutcome,
  RefundRequest,
} from '../../payment-gateway';
import { GatewayUnreachableError } from '../../payment-gateway';
import { PaymentGatewayRegistry } from '../../payment-gateway.registry';
import {
  MPESA_SUCCESS,
  MPESA_TIMEOUT,
  mpesaAmount,
  mpesaBearerToken,
  mpesaMsisdn,
  MpesaResponse,
} from './mpesa-protocol';

/** Query and reversal answer fast; only C2B waits for the customer's PIN. */
const SHORT_CALL_MS = 30_000;
/** `output_ResponseTransactionStatus` values that end a payment without money moving. */
const FAILED_STATUSES = ['cancelled', 'failed', 'expired', 'declined', 'rejected', 'reversed'];
/** The status query's answer for a reference M-Pesa does not know ("Invalid TransactionID Used"). */
const UNKNOWN_REFERENCE = 'INS-18';
/** A reversal's own statuses that say it was not made (`Reversed` is not one: that is money moved back). */
const REVERSAL_NOT_MADE = FAILED_STATUSES.filter((status) => status !== 'reversed');

type Sent =
  | { kind: 'answer'; httpStatus: number; body: MpesaResponse | null }
  | { kind: 'timeout' }
  | { kind: 'refused' }
  | { kind: 'lost'; error: unknown };

/**
 * M-Pesa Mozambique (README, *Taking payments*): C2B single stage for payments (a USSD push; the answer comes
 * when the customer has typed the PIN, within 120 s), the transaction status query for
 * reconciliation and the reversal for refunds. Registered for `mpesa` when `MPESA_API_KEY`,
 * `MPESA_PUBLIC_KEY` and `MPESA_SERVICE_PROVIDER_CODE` are set.
 */
@Injectable()
export class MpesaGateway implements PaymentGateway, OnModuleInit {
  readonly provider = 'mpesa';
  readonly methods = ['mpesa'];
  readonly needsPaymentNumber = true;
  readonly lookupAfterMs: number;
  private readonly logger = new Logger('MpesaGateway');
  private readonly settings: MpesaConfig | undefined;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly registry: PaymentGatewayRegistry,
  ) {
    this.settings = config.payments.mpesa;
    // Past the C2B limit, with a margin for the answer to be recorded.
    this.lookupAfterMs = (this.settings?.timeoutMs ?? 120_000) + 10_000;
  }

  onModuleInit(): void {
    if (this.settings) this.registry.register(this);
  }

  private get config(): MpesaConfig {
    return this.settings!;
  }

  validatePaymentNumber(paymentNumber: string): string | null {
    return mpesaMsisdn(paymentNumber)
      ? null
      : 'payment_number must be an M-Pesa number (84 123 4567, 258841234567 or +258841234567).';
  }

  async charge(request: ChargeRequest): Promise<GatewayOutcome> {
    const msisdn = mpesaMsisdn(request.paymentNumber ?? '');
    if (!msisdn) return { status: 'failed', code: 'invalid_number', message: 'Not an M-Pesa number.' };
    if (request.currency !== 'MZN')
      return { status: 'failed', code: 'invalid_currency', message: 'M-Pesa takes MZN only.' };
    const sent = await this.send('POST', this.config.urls.c2b, this.config.timeoutMs, {
      input_TransactionReference: request.orderNumber,
      input_CustomerMSISDN: msisdn,
      input_Amount: mpesaAmount(request.amount),
      input_ThirdPartyReference: request.reference,
      input_ServiceProviderCode: this.config.serviceProviderCode,
    });
    switch (sent.kind) {
      case 'timeout':
        return {
          status: 'unknown',
          code: 'timeout',
          message: `No answer from M-Pesa within ${Math.round(this.config.timeoutMs / 1000)} s.`,
        };
      case 'refused':
        // Nothing reached M-Pesa: no payment can have started.
        return { status: 'failed', code: 'unreachable', message: 'M-Pesa could not be reached.' };
      case 'lost':
        return {
          status: 'unknown',
          code: 'connection_lost',
          message: 'The connection to M-Pesa was lost before its answer.',
        };
    }
    const body = sent.body;
    const code = body?.output_ResponseCode;
    const conversation = body?.output_ConversationID || undefined;
    if (code === MPESA_SUCCESS && body?.output_TransactionID) {
      return { status: 'succeeded', transactionId: body.output_TransactionID, gatewayReference: conversation };
    }
    if (!code || code === MPESA_TIMEOUT || !code.startsWith('INS-')) {
      return {
        status: 'unknown',
        code: code ?? `http_${sent.httpStatus}`,
        message:
          body?.output_ResponseDesc ??
          body?.output_error ??
          `M-Pesa answered HTTP ${sent.httpStatus} without a result.`,
        gatewayReference: conversation,
      };
    }
    return {
      status: 'failed',
      code,
      message: body?.output_ResponseDesc ?? 'Refused by M-Pesa.',
      transactionId: body?.output_TransactionID || undefined,
      gatewayReference: conversation,
    };
  }

  /**
   * The status query by the attempt's third-party reference. `Completed` is a
   * payment; a final failure status ends the attempt; anything else (still pending, not found yet,
   * an error code) leaves it unknown. An `INS-0` answer only says the query itself worked.
   */
  async lookup(attempt: AttemptReference): Promise<GatewayOutcome> {
    const sent = await this.queryStatus(attempt.reference);
    if (sent.kind !== 'answer')
      return { status: 'unknown', code: sent.kind, message: 'The M-Pesa status query got no answer.' };
    const body = sent.body;
    const status = (body?.output_ResponseTransactionStatus ?? '').toLowerCase();
    if (body?.output_ResponseCode === MPESA_SUCCESS && status === 'completed') {
      // The query's answer has no transaction id of its own: the conversation id stands for it.
      const transactionId =
        body.output_TransactionID || body.output_ConversationID || attempt.transactionId || attempt.reference;
      return { status: 'succeeded', transactionId };
    }
    if (body?.output_ResponseCode === MPESA_SUCCESS && FAILED_STATUSES.includes(status)) {
      return {
        status: 'failed',
        code: `status_${status}`,
        message: `M-Pesa reports the payment as ${body.output_ResponseTransactionStatus}.`,
      };
    }
    return {
      status: 'unknown',
      code: body?.output_ResponseCode ?? `http_${sent.httpStatus}`,
      message: body?.output_ResponseDesc ?? 'Not confirmed by M-Pesa yet.',
    };
  }

  /**
   * The reversal of `output_TransactionID` for the full amount, under the request's reference as its
   * third-party reference. A connection refused sent nothing (`GatewayUnreachableError`); a timeout,
   * a connection lost, `INS-9` or an answer without an INS code may have reversed it: thrown as
   * such, for reconciliation to ask about. Any other INS code is M-Pesa's refusal.
   */
  async refund(request: RefundRequest): Promise<RefundOutcome> {
    const { initiatorIdentifier, securityCredential } = this.config;
    if (!initiatorIdentifier || !securityCredential) {
      return {
        accepted: false,
        code: 'not_configured',
        message: 'Refunds need MPESA_INITIATOR_IDENTIFIER and MPESA_SECURITY_CREDENTIAL.',
      };
    }
    const sent = await this.send('PUT', this.config.urls.reversal, SHORT_CALL_MS, {
      input_TransactionID: request.transactionId,
      input_SecurityCredential: securityCredential,
      input_InitiatorIdentifier: initiatorIdentifier,
      input_ThirdPartyReference: request.requestReference,
      input_ServiceProviderCode: this.config.serviceProviderCode,
      input_ReversalAmount: mpesaAmount(request.amount),
    });
    if (sent.kind === 'refused') throw new GatewayUnreachableError('M-Pesa reversal: refused');
    if (sent.kind !== 'answer') throw new Error(`M-Pesa reversal: ${sent.kind}`);
    const body = sent.body;
    const code = body?.output_ResponseCode;
    if (code === MPESA_SUCCESS)
      return { accepted: true, reference: body?.output_TransactionID || body?.output_ConversationID || null };
    // As for a payment: M-Pesa's own timeout, or an answer without an INS code (a proxy's 5xx), may
    // still have reversed it.
    if (!code || code === MPESA_TIMEOUT || !code.startsWith('INS-'))
      throw new Error(`M-Pesa reversal: no outcome (${code ?? `HTTP ${sent.httpStatus}`})`);
    return { accepted: false, code, message: body?.output_ResponseDesc ?? 'Refused by M-Pesa.' };
  }

  /**
   * A reversal whose answer was lost, by the status query of its third-party reference: `Completed`
   * (or `Reversed`) is a reversal made; a final failure status, or a reference M-Pesa does not know
   * (`INS-18`: the reversal answers at once, so minutes later it would know it), is none made;
   * anything else is not known yet.
   */
  async lookupRefund(request: RefundRequest): Promise<RefundLookup> {
    const sent = await this.queryStatus(request.requestReference);
    if (sent.kind !== 'answer') return { status: 'unknown', message: `The M-Pesa status query: ${sent.kind}.` };
    const code = sent.body?.output_ResponseCode;
    const status = (sent.body?.output_ResponseTransactionStatus ?? '').toLowerCase();
    if (code === MPESA_SUCCESS && (status === 'completed' || status === 'reversed'))
      return {
        status: 'refunded',
        reference: sent.body?.output_TransactionID || sent.body?.output_ConversationID || null,
      };
    if ((code === MPESA_SUCCESS && REVERSAL_NOT_MADE.includes(status)) || code === UNKNOWN_REFERENCE)
      return { status: 'not_refunded' };
    return { status: 'unknown', message: sent.body?.output_ResponseDesc ?? `M-Pesa answered HTTP ${sent.httpStatus}.` };
  }

  /** The transaction status query of a payment's or a reversal's third-party reference. */
  private queryStatus(reference: string): Promise<Sent> {
    const url = new URL(this.config.urls.query);
    url.searchParams.set('input_ThirdPartyReference', randomBase62(20));
    url.searchParams.set('input_QueryReference', reference);
    url.searchParams.set('input_ServiceProviderCode', this.config.serviceProviderCode);
    return this.send('GET', url.toString(), SHORT_CALL_MS);
  }

  /** One HTTP call; M-Pesa answers errors with their INS- code in a JSON body on a 4xx/5xx too. */
  private async send(
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    timeoutMs: number,
    body?: Record<string, string>,
  ): Promise<Sent> {
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json',
          Authorization: `Bearer ${mpesaBearerToken(this.config.apiKey, this.config.publicKey)}`,
          Origin: this.config.origin,
        },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      return this.failure(error);
    }
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      return this.failure(error);
    }
    let parsed: MpesaResponse | null = null;
    try {
      parsed = JSON.parse(text) as MpesaResponse;
    } catch {
      this.logger.warn({ httpStatus: response.status }, 'M-Pesa answered without JSON');
    }
    return { kind: 'answer', httpStatus: response.status, body: parsed && typeof parsed === 'object' ? parsed : null };
  }

  private failure(error: unknown): Sent {
    const e = error as { name?: string; cause?: { code?: string } };
    if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return { kind: 'timeout' };
    // Refused before anything was sent (nothing listens, no such host).
    if (e?.cause?.code === 'ECONNREFUSED' || e?.cause?.code === 'ENOTFOUND') return { kind: 'refused' };
    return { kind: 'lost', error };
  }
}
