import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { CatalogReads, type Product } from '../../catalog';
import { InjectDataSource } from '@nestjs/typeorm';
import type { IncomingHttpHeaders } from 'node:http';
import { DataSource, EntityManager } from 'typeorm';
import { randomBase62 } from '../../../common/crypto';
import { InProgressError, NotFoundError, UnauthorizedError, ValidationError } from '../../../common/errors/app-error';
import { Clock, CLOCK } from '../../../common/time';
import { MAX_CENTS } from '../../../common/money';
import { AppConfig } from '../../../config/app-config';
import { APP_CONFIG } from '../../../config/config.module';
import { bumpsTotal } from '../events/order-event-payload';
import { Order } from '../orders/order.entity';
import { LockedChange, OrderTransitionsService } from '../orders/order-transitions.service';
import { OrdersRepository } from '../orders/orders.repository';
import { SubscriptionsService } from '../subscriptions/subscriptions.service';
import { PaymentAttempt, transactionIdOf } from './payment-attempt.entity';
import { PaymentAttemptsRepository } from './payment-attempts.repository';
import { PaymentProviderError } from './payment-errors';
import {
  AttemptReference,
  ChargeRequest,
  GatewayOutcome,
  GatewayUnreachableError,
  PaymentGateway,
  RefundRequest,
} from './payment-gateway';
import { PaymentGatewayRegistry, PaymentMode } from './payment-gateway.registry';
import { StoreModes } from '../../identity';
import { GroupCommit } from '../../../database/group-commit';

/** What the checkout's pay form asks for. */
export interface PayRequest {
  method: string;
  /** Digits (and a leading +) as entered; null for methods whose gateway collects the details itself. */
  paymentNumber: string | null;
  /** Ids of the product's order bumps the customer accepted. */
  bumpIds: number[];
}

/**
 * How a payment went, as the pay route answers it. `waiting`: no outcome yet (the customer confirms
 * on the phone, or the answer was lost and reconciliation will tell). `redirect`: the customer pays
 * on the gateway's page at `redirectUrl`. `not_pending`: the order had already left `pending`;
 * nothing was charged, changed or sent.
 */
export type PaymentOutcome =
  'approved' | 'declined' | 'cancelled' | 'waiting' | 'redirect' | 'not_pending' | 'reopened';

export interface PaymentResult {
  outcome: PaymentOutcome;
  order: Order;
  attempt?: PaymentAttempt;
  redirectUrl?: string;
}

export interface StartAttemptOptions {
  method: string;
  paymentNumber: string | null;
  /** True (the default) for a charge without the customer at the page: a renewal (billing README, `subscriptions/`). */
  offSession?: boolean;
}

/** The pay route waits this long for an outcome before showing the waiting page. */
export const PAY_WAIT_MS = 5_000;

const newReference = (): string => randomBase62(20);

/** A final outcome (succeeded or failed) of an attempt, to apply. */
interface FinalOutcome {
  attempt: PaymentAttempt;
  outcome: Extract<GatewayOutcome, { status: 'succeeded' | 'failed' }>;
  at: Date;
}

/** Final outcomes applied in one transaction at most (a burst of payments, docs/performance.md). */
const OUTCOMES_PER_TRANSACTION = 64;
/** Transactions of outcomes open at once per process: one being committed while the next fills. */
const OUTCOME_TRANSACTIONS = 2;

/** How claiming an attempt ended: the attempt of the order, or the answer without one. */
type Claim =
  | { result: PaymentResult; attempt?: undefined; order?: undefined }
  | { result?: undefined; attempt: PaymentAttempt; order: Order };

/**
 * The attempt engine (README, *Taking payments*): the one path every gateway goes through, for the checkout
 * (through CheckoutPaymentsService), renewals, callbacks, reconciliation and refunds. An attempt
 * is claimed in a short transaction (one `processing` attempt per order), the gateway is called
 * with no transaction or row lock held, and the outcome is applied in a second transaction through
 * the order state machine, conditionally on the attempt still being open: of the gateway's answer, its
 * callback and reconciliation, the first wins and the others change and send nothing.
 */
@Injectable()
export class PaymentsService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Payments');
  private readonly outcomes: GroupCommit<FinalOutcome, PaymentResult>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly orders: OrdersRepository,
    private readonly catalog: CatalogReads,
    private readonly transitions: OrderTransitionsService,
    private readonly attempts: PaymentAttemptsRepository,
    private readonly registry: PaymentGatewayRegistry,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly subscriptions: SubscriptionsService,
    private readonly modes: StoreModes,
  ) {
    this.outcomes = new GroupCommit(dataSource, (manager, outcomes) => this.applyFinal(manager, outcomes), {
      maxBatch: OUTCOMES_PER_TRANSACTION,
      maxInFlight: OUTCOME_TRANSACTIONS,
      // Two outcomes of one order (the gateway's answer and its callback) are never in one
      // transaction: the second sees the first committed, and changes and sends nothing.
      keyOf: (final) => final.attempt.orderId,
    });
  }

  /**
   * Test mode's orders pay through the test gateway only (README, *Test mode*). Inside a
   * transaction, pass its `manager`.
   */
  async modeOf(storeId: number, manager?: EntityManager): Promise<PaymentMode> {
    return (await this.modes.isTest(storeId, manager)) ? 'test' : 'live';
  }

  onApplicationBootstrap(): void {
    if (!this.registry.methods().length) {
      this.logger.warn('No payment gateway is configured and PAYMENT_SANDBOX is off: the checkout takes no payments.');
    }
  }

  /**
   * The checkout's payment of `found` (the order of a pay link and the product it sells): claims an
   * attempt and waits up to `waitMs` for the gateway; past that the answer is `waiting` and the
   * gateway's outcome is applied when it comes.
   */
  async pay(
    found: { order: Order; product: Product },
    request: PayRequest,
    returnUrls: ChargeRequest['returnUrls'],
    waitMs = PAY_WAIT_MS,
  ): Promise<PaymentResult> {
    const gateway = this.gatewayFor(request.method, await this.modeOf(found.order.storeId));
    const claimed =
      (!request.bumpIds.length && (await this.claimWithoutBumps(found.order.id, gateway, request))) ||
      (await this.claim(found.order.id, gateway, request, request.bumpIds, false));
    if (claimed.result) return claimed.result;
    // A plan deleted since the link was opened (its deletion waited for no payment: billing README,
    // *A product or plan deleted while it is being paid*): nothing is charged for a subscription
    // that could not start.
    if (claimed.order.planId !== null && !(await this.catalog.findPlan(claimed.order.planId))) {
      return this.apply(claimed.attempt, {
        status: 'failed',
        code: 'plan_deleted',
        message: 'The plan of this order was deleted.',
      });
    }
    const settled = this.run(
      claimed.attempt,
      gateway,
      this.chargeRequest(claimed.attempt, claimed.order, found.product, returnUrls),
    );
    // Past the wait nobody awaits it: its failure is logged in run().
    settled.catch(() => undefined);
    // A plain timer, cleared when the outcome comes first (an aborted timer's AbortError would cost
    // every payment a DOMException and its stack).
    let timer: NodeJS.Timeout | undefined;
    const first = await Promise.race([
      settled,
      new Promise<null>((resolve) => (timer = setTimeout(resolve, waitMs, null))),
    ]).finally(() => clearTimeout(timer));
    if (first) return first;
    return { outcome: 'waiting', order: claimed.order, attempt: claimed.attempt };
  }

  /**
   * Charges `order` without the checkout page: renewals (billing README, `subscriptions/`) call this with the last
   * successful method and saved number. It waits for the gateway's answer (at most the gateway's own
   * timeout, 120 s for M-Pesa); the result's `attempt.status` tells what happened. With
   * `offSession` (the default) a failure leaves the order `pending` rather than `cancelled`.
   * Throws the 409 `A payment is already in progress.` while another attempt of the order is
   * processing, and a 422 on `payment_method` when no gateway takes the method.
   */
  async startAttempt(order: Pick<Order, 'id' | 'storeId'>, options: StartAttemptOptions): Promise<PaymentResult> {
    const gateway = this.gatewayFor(options.method, await this.modeOf(order.storeId));
    const request: PayRequest = { method: options.method, paymentNumber: options.paymentNumber, bumpIds: [] };
    const claimed = await this.claim(order.id, gateway, request, null, options.offSession ?? true);
    if (claimed.result) return claimed.result;
    const product = await this.catalog.findProduct(claimed.order.productId);
    return this.run(claimed.attempt, gateway, this.chargeRequest(claimed.attempt, claimed.order, product, null));
  }

  /** `POST /v1/payments/{provider}/callback`: a gateway's signed word on an attempt. */
  async handleCallback(
    provider: string,
    rawBody: Buffer | undefined,
    headers: IncomingHttpHeaders,
  ): Promise<{ orderNumber: string | null; orderStatus: string | null }> {
    // The test gateway's callbacks come to the same route; they may settle test orders only.
    const gateway = this.registry.forProvider(provider) ?? this.registry.forProvider(provider, 'test');
    if (!gateway?.verifyCallback) throw new NotFoundError();
    const notification = rawBody ? gateway.verifyCallback(rawBody, headers) : null;
    if (!notification) throw new UnauthorizedError('Invalid signature.');
    let attempt = notification.attemptReference
      ? await this.attempts.findByReference(notification.attemptReference)
      : null;
    if (attempt && attempt.provider !== provider) attempt = null;
    const order = attempt
      ? await this.orders.findById(attempt.orderId)
      : notification.orderNumber
        ? await this.orders.findByOrderNumber(notification.orderNumber)
        : null;
    if (!notification.outcome)
      return { orderNumber: order?.orderNumber ?? notification.orderNumber, orderStatus: order?.status ?? null };
    if (!order || this.registry.forProvider(provider, await this.modeOf(order.storeId)) !== gateway)
      throw new NotFoundError('Order not found.');
    attempt ??= await this.attempts.findOpenOfOrder(order.id, provider);
    if (!attempt) {
      // A gateway confirming a payment started elsewhere (the sandbox's callback): recorded as an
      // attempt of its own, so the order's payments show it. Gateways repeat callbacks: one for an
      // order that already left pending changes nothing.
      const request = {
        method: order.paymentMethod ?? gateway.methods[0],
        paymentNumber: order.paymentNumber,
        bumpIds: [],
      };
      const claimed = await this.claim(order.id, gateway, request, null, false);
      if (claimed.result) return { orderNumber: order.orderNumber, orderStatus: claimed.result.order.status };
      attempt = claimed.attempt;
    }
    const result = await this.apply(attempt, notification.outcome);
    return { orderNumber: result.order.orderNumber, orderStatus: result.order.status };
  }

  /**
   * Refunds an approved order through the gateway that took its payment (README, *Taking payments*): only when
   * the gateway accepts does the order become `refunded` (with `order_refund`); a refusal or an
   * unreachable gateway is the 502 (the errors of the OpenAPI description) and changes nothing. No lock is held across the
   * gateway call; a refund of the attempt already with the gateway is a 409. A refund whose answer
   * was lost (a timeout, a connection dropped after sending) is a 502 `unknown` and stays claimed
   * (409 meanwhile) until reconciliation asks the gateway ({@link reconcileRefund}). An approved
   * order with no recorded payment (approved before payment attempts existed) is refunded without a gateway.
   */
  async refund(order: Order): Promise<Order | null> {
    const attempt = await this.attempts.findRefundable(order.id);
    if (!attempt) return this.transitions.transition(order.id, 'refunded');
    const gateway = this.registry.forProvider(attempt.provider, await this.modeOf(order.storeId));
    if (!gateway)
      throw new PaymentProviderError('not_configured', `The ${attempt.provider} gateway is not configured.`);
    const request = { ...this.refundRequestOf(attempt), requestReference: newReference() };
    if (!(await this.attempts.claimRefund(attempt.id, this.clock.now(), request.requestReference))) {
      throw new InProgressError('A refund is already in progress.');
    }
    let outcome;
    try {
      outcome = await gateway.refund(request);
    } catch (error) {
      const log = { err: error, provider: gateway.provider, attempt: attempt.reference };
      if (error instanceof GatewayUnreachableError) {
        await this.attempts.releaseRefund(attempt.id, request.requestReference);
        this.logger.warn(log, 'Refund: payment provider unreachable');
        throw new PaymentProviderError('unreachable', 'The payment provider could not be reached.');
      }
      this.logger.warn(log, 'Refund: no answer from the payment provider; reconciliation will ask it');
      throw new PaymentProviderError(
        'unknown',
        'The payment provider did not answer; the refund is checked with it within minutes.',
      );
    }
    if (!outcome.accepted) {
      await this.attempts.releaseRefund(attempt.id, request.requestReference);
      throw new PaymentProviderError(outcome.code, outcome.message);
    }
    const settled = await this.settleRefund(attempt, request.requestReference, outcome.reference);
    return settled.recorded ? settled.order : null;
  }

  /**
   * Reconciliation of a refund claimed ten minutes ago and never settled: the gateway is asked
   * about the request (`lookupRefund`); a refund it made is recorded as the answer would have been
   * (the order `refunded`, `order_refund`), one it never made is freed for the seller to ask again,
   * and one it cannot tell of yet waits for the next round. Returns what was done.
   */
  async reconcileRefund(attempt: PaymentAttempt): Promise<'refunded' | 'released' | 'waiting'> {
    const requestReference = attempt.refundRequestReference;
    const gateway = await this.gatewayOf(attempt);
    if (!gateway) return 'waiting';
    // A gateway that cannot be asked, or a claim made before requests had references: freed, as before.
    if (!gateway.lookupRefund || !requestReference) {
      await this.attempts.releaseRefund(attempt.id, requestReference);
      return 'released';
    }
    const found = await gateway.lookupRefund({ ...this.refundRequestOf(attempt), requestReference });
    if (found.status === 'unknown') return 'waiting';
    if (found.status === 'not_refunded') {
      await this.attempts.releaseRefund(attempt.id, requestReference);
      return 'released';
    }
    return (await this.settleRefund(attempt, requestReference, found.reference)).recorded ? 'refunded' : 'waiting';
  }

  /**
   * The refund of the request `requestReference` recorded and its order refunded, in one
   * transaction. `recorded` is false when it was recorded already (nothing is done twice); `order`
   * is null when the order's state did not allow the change, which a claimed refund of an approved
   * order never meets: logged as an error, the money being back with the customer.
   */
  private async settleRefund(
    attempt: PaymentAttempt,
    requestReference: string,
    reference: string | null,
  ): Promise<{ recorded: boolean; order: Order | null }> {
    const settled = await this.dataSource.transaction(async (manager) => {
      if (!(await this.attempts.recordRefund(manager, attempt.id, requestReference, this.clock.now(), reference)))
        return { recorded: false, order: null };
      return { recorded: true, order: await this.transitions.transition(attempt.orderId, 'refunded', {}, manager) };
    });
    if (settled.recorded && !settled.order)
      this.logger.error({ attempt: attempt.reference }, 'Refund recorded for an order that was no longer approved');
    return settled;
  }

  private refundRequestOf(attempt: PaymentAttempt): Omit<RefundRequest, 'requestReference'> {
    return { ...this.referenceOf(attempt), transactionId: attempt.transactionId ?? '' };
  }

  /**
   * Applies an outcome to an attempt, from any source (the gateway's answer, a callback,
   * reconciliation). A final outcome is applied only while the attempt is still open, with the
   * order's change and its event, in one transaction.
   */
  async apply(attempt: PaymentAttempt, outcome: GatewayOutcome): Promise<PaymentResult> {
    const now = this.clock.now();
    if (outcome.status === 'processing') {
      const changed = await this.dataSource.transaction((manager) =>
        this.attempts.change(manager, attempt.id, ['processing'], {
          gatewayReference: outcome.gatewayReference ?? attempt.gatewayReference,
          redirectUrl: outcome.redirectUrl ?? null,
          updatedAt: now,
        }),
      );
      const order = (await this.orders.findById(attempt.orderId))!;
      if (changed && outcome.redirectUrl)
        return { outcome: 'redirect', order, attempt: changed, redirectUrl: outcome.redirectUrl };
      return this.resultOf(order, changed ?? attempt);
    }
    if (outcome.status === 'unknown') {
      const changed = await this.dataSource.transaction((manager) =>
        this.attempts.change(manager, attempt.id, ['processing'], {
          status: 'unknown',
          gatewayReference: outcome.gatewayReference ?? attempt.gatewayReference,
          errorCode: outcome.code.slice(0, 64),
          errorMessage: outcome.message.slice(0, 500),
          updatedAt: now,
        }),
      );
      if (changed)
        this.logger.warn(
          { attempt: attempt.reference, code: outcome.code },
          'Payment outcome unknown: reconciliation will ask the gateway',
        );
      return this.resultOf((await this.orders.findById(attempt.orderId))!, changed ?? attempt);
    }
    return this.outcomes.run({ attempt, outcome, at: now });
  }

  /**
   * Final outcomes that come together (a burst of checkout payments) applied in one transaction
   * (`GroupCommit`): their orders locked and attempts changed by one statement, then each order's
   * transition in turn, then the jobs of all of them inserted by one statement with the commit.
   */
  private async applyFinal(manager: EntityManager, outcomes: FinalOutcome[]): Promise<PaymentResult[]> {
    const settled = await this.attempts.settle(
      manager,
      ['processing', 'unknown'],
      outcomes.map(({ attempt, outcome, at }) => ({
        orderId: attempt.orderId,
        attemptId: attempt.id,
        changes: {
          status: outcome.status,
          transactionId: outcome.transactionId ?? transactionIdOf(attempt),
          gatewayReference: outcome.gatewayReference ?? attempt.gatewayReference,
          errorCode: outcome.status === 'failed' ? outcome.code.slice(0, 64) : null,
          errorMessage: outcome.status === 'failed' ? outcome.message.slice(0, 500) : null,
          finishedAt: at,
        },
      })),
    );
    // Each outcome's order change (none for an outcome another source applied first, a renewal's
    // decline or an off-session one), made for all of them together by the state machine.
    const results = new Array<PaymentResult>(outcomes.length);
    const changes: Array<{ index: number; change: LockedChange; attempt: PaymentAttempt }> = [];
    for (const [index, { attempt, at }] of outcomes.entries()) {
      const { order: locked, attempt: changed, hasBumps } = settled[index]!;
      // Another source applied an outcome first: this one changes and sends nothing.
      if (!changed) {
        results[index] = this.resultOf(locked, (await this.attempts.findById(attempt.id, manager))!);
        continue;
      }
      const details = {
        // Every attempt, declined ones too, gives the order its transaction id.
        transactionId: transactionIdOf(changed),
        paymentMethod: changed.method,
        paymentNumber: changed.paymentNumber,
      };
      // Most orders have no bumps: the hooks then need not read them.
      const bumps = hasBumps ? undefined : [];
      if (changed.status === 'succeeded') {
        changes.push({ index, attempt: changed, change: { order: locked, to: 'approved', details, bumps } });
      } else if (locked.subscriptionId !== null) {
        // A failed attempt on a renewal order leaves it pending (the customer can still
        // pay it by its link, dunning tries again), and the subscription hears of it. Like every
        // attempt it gives the order a transaction id and method, so its events name them and
        // their portal link opens this renewal's own portal.
        locked.transactionId = details.transactionId;
        locked.paymentMethod = details.paymentMethod;
        await this.orders.save(manager, locked);
        await this.subscriptions.paymentFailed(manager, locked, at);
        results[index] = this.resultOf(locked, changed);
      } else if (changed.offSession) {
        results[index] = this.resultOf(locked, changed);
      } else {
        changes.push({ index, attempt: changed, change: { order: locked, to: 'cancelled', details, bumps } });
      }
    }
    const moved = await this.transitions.transitionAllLocked(
      manager,
      changes.map((c) => c.change),
    );
    changes.forEach(({ index, attempt, change }, i) => {
      const order = moved[i];
      if (!order && change.to === 'approved') {
        // Paid while the order had already left pending (a second attempt approved it, or the
        // customer cancelled it): the money is the seller's to give back, the order stays as it is.
        this.logger.warn(
          { attempt: attempt.reference, order: change.order.orderNumber, status: change.order.status },
          'Payment succeeded for an order no longer pending',
        );
      }
      results[index] = this.resultOf(order ?? change.order, attempt);
    });
    return results;
  }

  /** What a gateway is told about a recorded attempt. */
  referenceOf(attempt: PaymentAttempt): AttemptReference {
    return {
      reference: attempt.reference,
      amount: attempt.amount,
      currency: attempt.currency,
      gatewayReference: attempt.gatewayReference,
      transactionId: attempt.transactionId,
      paymentNumber: attempt.paymentNumber,
      offSession: attempt.offSession,
      createdAt: attempt.createdAt,
    };
  }

  private gatewayFor(method: string, mode: PaymentMode): PaymentGateway {
    const gateway = this.registry.forMethod(method, mode);
    if (!gateway) {
      const offered = this.registry.methods(mode);
      throw ValidationError.field(
        'payment_method',
        offered.length ? `payment_method must be one of: ${offered.join(', ')}.` : 'No payment method is available.',
      );
    }
    return gateway;
  }

  /**
   * The claim of most checkout payments (no order bumps chosen now or before) in one statement
   * (`PaymentAttemptsRepository.claimWithoutBumps`); null where `claim`'s transaction must decide
   * (bumps to replace, or another attempt processing).
   */
  private async claimWithoutBumps(
    orderId: number,
    gateway: PaymentGateway,
    request: PayRequest,
  ): Promise<Claim | null> {
    const claimed = await this.attempts.claimWithoutBumps(orderId, {
      reference: newReference(),
      method: request.method,
      provider: gateway.provider,
      paymentNumber: request.paymentNumber,
      offSession: false,
      at: this.clock.now(),
    });
    if (!claimed) throw new NotFoundError();
    const { order, attempt } = claimed;
    if (order.status !== 'pending') return { result: { outcome: 'not_pending', order } };
    return attempt ? { attempt, order } : null;
  }

  /**
   * The first transaction: the order row locked only for this, bumps chosen again, and the attempt
   * inserted as `processing` (the partial unique index refuses a second one).
   */
  private async claim(
    orderId: number,
    gateway: PaymentGateway,
    request: PayRequest,
    bumpIds: number[] | null,
    offSession: boolean,
  ): Promise<Claim> {
    return this.dataSource.transaction(async (manager) => {
      const order = await this.orders.lockById(manager, orderId);
      if (!order) throw new NotFoundError();
      if (order.status !== 'pending') return { result: { outcome: 'not_pending' as const, order } };
      if (bumpIds) await this.chooseBumps(manager, order, bumpIds);
      const now = this.clock.now();
      const attempt = await this.attempts.insertProcessing(manager, {
        reference: newReference(),
        orderId: order.id,
        storeId: order.storeId,
        method: request.method,
        provider: gateway.provider,
        amount: order.amount,
        currency: order.currency,
        paymentNumber: request.paymentNumber,
        offSession,
        createdAt: now,
        updatedAt: now,
      });
      if (attempt) return { attempt, order };
      const open = await this.attempts.findProcessingOfOrder(order.id, manager);
      // The customer is back on the checkout while the gateway's page is still open: send them back there.
      if (open?.redirectUrl && open.method === request.method) {
        return { result: { outcome: 'redirect' as const, order, attempt: open, redirectUrl: open.redirectUrl } };
      }
      throw new InProgressError('A payment is already in progress.');
    });
  }

  /** Bumps are chosen again on every attempt; the order's own amount is what is left without them. */
  private async chooseBumps(manager: EntityManager, order: Order, bumpIds: number[]): Promise<void> {
    const chosen = [...new Set(bumpIds)];
    // None chosen (most payments): nothing to check against the offer.
    const offered = chosen.length ? await this.catalog.findBumpsOffered(order.storeId, order.productId, manager) : [];
    if (chosen.some((id) => !offered.some((o) => o.bump.id === id)))
      throw ValidationError.field('bumps', 'Unknown order bump.');
    const previous = await this.orders.bumpItemsOf(order.id, manager);
    const items = offered
      .filter((o) => chosen.includes(o.bump.id))
      .map((o) => ({ productId: o.product.id, productPid: o.product.pid, name: o.product.name, price: o.bump.price }));
    // Nothing chosen now or before: nothing to replace (the common case, one statement fewer).
    if (!previous.length && !items.length) return;
    const originalAmount = order.originalAmount - bumpsTotal(previous) + bumpsTotal(items);
    if (originalAmount > MAX_CENTS)
      throw ValidationError.field('bumps', 'With these order bumps the total would be over 9999999999.99.');
    await this.orders.replaceBumpItems(manager, order.id, items);
    order.originalAmount = originalAmount;
    order.amount = order.originalAmount - order.discountAmount;
    await this.orders.save(manager, order);
  }

  private chargeRequest(
    attempt: PaymentAttempt,
    order: Order,
    product: Product | null,
    returnUrls: ChargeRequest['returnUrls'],
  ): ChargeRequest {
    return {
      reference: attempt.reference,
      orderNumber: order.orderNumber,
      amount: attempt.amount,
      currency: attempt.currency,
      method: attempt.method,
      paymentNumber: attempt.paymentNumber,
      description: product?.name ?? order.orderNumber,
      offSession: attempt.offSession,
      returnUrls,
    };
  }

  /** The gateway call, outside any transaction; whatever it throws means "we cannot tell". */
  private async run(attempt: PaymentAttempt, gateway: PaymentGateway, request: ChargeRequest): Promise<PaymentResult> {
    let outcome: GatewayOutcome;
    try {
      outcome = await gateway.charge(request);
    } catch (error) {
      this.logger.warn(
        { err: error, provider: gateway.provider, attempt: attempt.reference },
        'Payment gateway call failed',
      );
      outcome = { status: 'unknown', code: 'gateway_error', message: 'The payment provider gave no usable answer.' };
    }
    try {
      return await this.apply(attempt, outcome);
    } catch (error) {
      // The outcome could not be recorded (database down): reconciliation asks the gateway again.
      this.logger.error({ err: error, attempt: attempt.reference }, 'Recording a payment outcome failed');
      throw error;
    }
  }

  private resultOf(order: Order, attempt: PaymentAttempt): PaymentResult {
    const outcome: PaymentOutcome =
      order.status === 'approved' || order.status === 'refunded'
        ? 'approved'
        : order.status === 'cancelled'
          ? 'declined'
          : attempt.status === 'failed'
            ? 'declined'
            : 'waiting';
    return { outcome, order, attempt };
  }

  /** For the reconciliation job: the registry's gateway of an attempt (of its store's mode). */
  async gatewayOf(attempt: PaymentAttempt): Promise<PaymentGateway | undefined> {
    return this.registry.forProvider(attempt.provider, await this.modeOf(attempt.storeId));
  }
}
