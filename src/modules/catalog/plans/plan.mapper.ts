import { centsToNumber } from '../../../common/money';
import { formatTimestamp } from '../../../common/time';
import { SubscriberRow } from '../../billing';
import { PlanDto, SubscriberDto } from './dto/plan.dto';
import { Plan } from './plan.entity';

export function toPlanDto(plan: Plan, productPid: string, currency: string): PlanDto {
  return {
    id: plan.id,
    plan_id: plan.planId,
    name: plan.name,
    price: centsToNumber(plan.price),
    currency,
    interval: plan.interval,
    interval_count: plan.intervalCount,
    product_pid: productPid,
    created_at: formatTimestamp(plan.createdAt),
    updated_at: formatTimestamp(plan.updatedAt),
  };
}

export function toSubscriberDto(row: SubscriberRow): SubscriberDto {
  return {
    order_number: row.orderNumber,
    amount: centsToNumber(row.amount),
    currency: row.currency,
    status: row.status,
    customer: { name: row.customer.name, email: row.customer.email, mobile_number: row.customer.mobileNumber },
    created_at: formatTimestamp(row.createdAt),
    updated_at: formatTimestamp(row.updatedAt),
  };
}
