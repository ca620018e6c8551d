import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Order } from '../orders/order.entity';
import { PaymentGatewayRegistry } from '../payments/payment-gateway.registry';
import { PaymentsService } from '../payments/payments.service';
import type { SavedPaymentMethod } from './subscriptions.repository';

/** `not_pending`: the order had left `pending` meanwhile (paid through its link): nothing applied. */
export type RenewalChargeOutcome = 'approved' | 'declined' | 'pending' | 'not_pending';

/**
 * The automatic charge of a renewal order with the subscription's saved method (billing README, `subscriptions/`):
 * the one place the sweep meets payments. It is an off-session payment attempt
 * (`PaymentsService.startAttempt`): claimed, the gateway called with no transaction held, the
 * outcome applied through the order state machine. Approved → the order's approval renews the
 * subscription; failed → the order stays `pending` and `subscription.payment_failed` is published;
 * an unknown outcome is settled by reconciliation.
 */
@Injectable()
export class RenewalCharger {
  private readonly logger = new Logger(RenewalCharger.name);

  constructor(
    private readonly payments: PaymentsService,
    private readonly gateways: PaymentGatewayRegistry,
  ) {}

  /**
   * Whether the saved method can be charged without the customer at the page: a gateway serves the
   * method and can charge off-session with the saved number (the sandbox and M-Pesa push to the
   * phone; Stripe's Checkout cannot); otherwise the customer pays by the link.
   */
  async canCharge(saved: SavedPaymentMethod | null, storeId: number, manager?: EntityManager): Promise<boolean> {
    if (saved === null || saved.paymentNumber === '') return false;
    const gateway = this.gateways.forMethod(saved.method, await this.payments.modeOf(storeId, manager));
    return gateway !== undefined && gateway.chargesOffSession !== false;
  }

  async charge(order: Order, saved: SavedPaymentMethod): Promise<RenewalChargeOutcome> {
    const result = await this.payments.startAttempt(order, {
      method: saved.method,
      paymentNumber: saved.paymentNumber,
      offSession: true,
    });
    switch (result.outcome) {
      case 'approved':
        return 'approved';
      case 'declined':
        return 'declined';
      case 'not_pending':
        return 'not_pending';
      default:
        this.logger.log({ orderNumber: order.orderNumber, outcome: result.outcome }, 'Renewal charge not settled yet');
        return 'pending';
    }
  }
}
