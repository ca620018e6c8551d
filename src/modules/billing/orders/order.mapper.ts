import { centsToNumber } from '../../../common/money';
import { formatTimestamp } from '../../../common/time';
import type { Plan } from '../../catalog/plans/plan.entity';
import type { Product } from '../../catalog/products/product.entity';
import type { Customer } from '../customers/customer.entity';
import { trackingPayload } from '../events/order-event-payload';
import type { Subscription } from '../subscriptions/subscription.entity';
import type { OrderDto, OrderSummaryDto } from './dto/order-response.dto';
import type { OrderBumpItem } from './order-bump-item.entity';
import type { Order } from './order.entity';

/** An order with the rows its representation shows. */
export interface OrderView {
  order: Order;
  /** Null once the catalog deleted the product (allowed while it has no sales). */
  product: Product | null;
  plan: Plan | null;
  customer: Customer;
  subscription: Subscription | null;
  bumps: OrderBumpItem[];
}

export function toOrderSummary(order: Order): OrderSummaryDto {
  return {
    id: order.id,
    order_number: order.orderNumber,
    amount: centsToNumber(order.amount),
    currency: order.currency,
    status: order.status,
    created_at: formatTimestamp(order.createdAt),
    updated_at: formatTimestamp(order.updatedAt),
  };
}

export function toOrderDto(view: OrderView): OrderDto {
  const { order, product, plan, customer, subscription } = view;
  return {
    ...toOrderSummary(order),
    original_amount: centsToNumber(order.originalAmount),
    discount_amount: centsToNumber(order.discountAmount),
    coupon_code: order.couponCode,
    discount:
      order.discountId !== null
        ? { id: order.discountId, code: order.couponCode ?? '', amount: centsToNumber(order.discountAmount) }
        : null,
    product: product
      ? {
          id: product.id,
          pid: product.pid,
          name: product.name,
          type: product.type,
          price: product.price === null ? null : centsToNumber(product.price),
        }
      : null,
    plan: plan
      ? { plan_id: plan.planId, name: plan.name, price: centsToNumber(plan.price), interval: plan.interval, interval_count: plan.intervalCount }
      : null,
    customer: {
      id: customer.id,
      name: customer.name,
      email: customer.email,
      mobile_number: customer.mobileNumber,
      payment_number: customer.paymentNumber,
    },
    tracking: trackingPayload(order.tracking),
    transaction_id: order.transactionId,
    transaction: { transaction_id: order.transactionId, payment_method: order.paymentMethod, payment_number: order.paymentNumber },
    affiliate:
      order.affiliateId !== null
        ? { id: order.affiliateId, commission_amount: order.commissionAmount === null ? null : centsToNumber(order.commissionAmount) }
        : null,
    order_bump: view.bumps.map((b) => ({ product_pid: b.productPid, name: b.name, price: centsToNumber(b.price) })),
    subscription: subscription
      ? {
          status: subscription.status,
          start_date: formatTimestamp(subscription.startDate),
          end_date: formatTimestamp(subscription.endDate),
          cancelled_at: formatTimestamp(subscription.cancelledAt),
        }
      : null,
    return_url: order.returnUrl,
    cancel_url: order.cancelUrl,
    approved_at: formatTimestamp(order.approvedAt),
    cancelled_at: formatTimestamp(order.cancelledAt),
    refunded_at: formatTimestamp(order.refundedAt),
  };
}
