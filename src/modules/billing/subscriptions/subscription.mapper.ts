import { centsToNumber } from '../../../common/money';
import { formatTimestamp } from '../../../common/time';
import type { Plan } from '../../catalog';
import type { Customer } from '../customers/customer.entity';
import type { SubscriptionDto } from './dto/subscription.dto';
import type { Subscription } from './subscription.entity';

export interface SubscriptionView {
  subscription: Subscription;
  plan: Plan | null;
  customer: Customer | null;
  orders: string[];
}

export function toSubscriptionDto({ subscription: s, plan, customer, orders }: SubscriptionView): SubscriptionDto {
  return {
    id: s.id,
    status: s.status,
    plan: plan
      ? {
          plan_id: plan.planId,
          name: plan.name,
          price: centsToNumber(plan.price),
          interval: s.interval,
          interval_count: s.intervalCount,
        }
      : null,
    customer: customer
      ? { id: customer.id, name: customer.name, email: customer.email, mobile_number: customer.mobileNumber }
      : null,
    start_date: formatTimestamp(s.startDate),
    end_date: formatTimestamp(s.endDate),
    cancelled_at: formatTimestamp(s.cancelledAt),
    cancel_at_period_end: s.cancelAtPeriodEnd,
    orders,
    created_at: formatTimestamp(s.createdAt),
    updated_at: formatTimestamp(s.updatedAt),
  };
}
