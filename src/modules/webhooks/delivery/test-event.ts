import { randomBase62 } from '../../../common/crypto';
import { noPlanSubscriber, type OrderEventKind, type OrderEventPayload, portalUrl } from '../../billing';

/** The webhook payload of a test event, marked so no receiver mistakes it for a sale (README, *Choices where the contract is silent*). */
export type TestEventPayload = OrderEventPayload & { test: true };

export interface TestEventInput {
  kind: OrderEventKind;
  store: { brand: string; currency: string };
  /** The webhook's product when it is limited to one, else a sample one. */
  product: { name: string; pid: string } | null;
  payUrl: string;
}

const STATUS_OF: Record<OrderEventKind, string> = {
  order_approved: 'approved',
  order_cancelled: 'cancelled',
  order_refund: 'refunded',
  // A subscription event carries the subscription's latest order.
  subscription_past_due: 'pending',
  subscription_expired: 'cancelled',
  subscription_cancelled: 'approved',
};

/**
 * A sample one-time order of 100.00 in the store's currency, with every field (the webhooks of the OpenAPI description) in the
 * order billing writes them, `order_number` starting `TEST-` and `test: true` last.
 */
export function buildTestEventPayload(input: TestEventInput): TestEventPayload {
  const orderNumber = `TEST-${randomBase62(12)}`;
  const transactionId = `test_${randomBase62(16)}`;
  return {
    order_type: input.kind,
    order_number: orderNumber,
    status: STATUS_OF[input.kind],
    transaction_id: transactionId,
    payment_method: 'mpesa',
    amount: 100,
    currency: input.store.currency,
    discount_amount: 0,
    coupon_code: null,
    original_amount: 100,
    tracking: { utm_source: null, utm_campaign: null, utm_medium: null, utm_content: null, utm_term: null },
    plan_subscriber: noPlanSubscriber(portalUrl(input.payUrl, orderNumber, transactionId)),
    product: {
      name: input.product?.name ?? 'Sample product',
      price: '100.00',
      pid: input.product?.pid ?? 'prod_sample',
    },
    customer: {
      email: 'customer@example.com',
      name: 'Sample Customer',
      mobile_number: '+258840000000',
      payment_number: '840000000',
    },
    affiliate: [],
    order_bump: [],
    brand: input.store.brand,
    image: 'https://example.com/sample-product.png',
    test: true,
  };
}
