import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Cents, toCents } from '../../../common/money';
import { Order } from '../orders/order.entity';
import { Subscription } from '../subscriptions/subscription.entity';

/** The sums of one UTC day (`YYYY-MM-DD`). */
export interface DayTotals {
  date: string;
  amount: Cents;
  count: number;
}

/** An active subscription as the MRR needs it: its plan and the interval it renews on. */
export type ActiveSubscription = Pick<Subscription, 'planId' | 'interval' | 'intervalCount'>;

/** The day of a timestamp in UTC, as PostgreSQL groups it. */
const UTC_DAY = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;

/**
 * Billing's sums over its own orders and subscriptions for the sales report: per UTC day, in a
 * half-open range of instants `[from, to)`. Money comes back as exact cents (the sum is a
 * `numeric` read as text).
 */
@Injectable()
export class SalesReportRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Orders approved in the range, whatever happened to them later (a refund counts on its own day). */
  approvedPerDay(storeId: number, from: Date, to: Date): Promise<DayTotals[]> {
    return this.perDay(storeId, 'approved_at', from, to);
  }

  /** Refunds made in the range. */
  refundedPerDay(storeId: number, from: Date, to: Date): Promise<DayTotals[]> {
    return this.perDay(storeId, 'refunded_at', from, to);
  }

  private async perDay(storeId: number, column: 'approved_at' | 'refunded_at', from: Date, to: Date) {
    const rows = await this.dataSource
      .createQueryBuilder(Order, 'o')
      .select(UTC_DAY(`o.${column}`), 'date')
      .addSelect('sum(o.amount)::text', 'amount')
      .addSelect('count(*)::int', 'count')
      .where('o.store_id = :storeId', { storeId })
      .andWhere(`o.${column} >= :from AND o.${column} < :to`, { from, to })
      .groupBy('1')
      .getRawMany<{ date: string; amount: string; count: number }>();
    return rows.map((row) => ({ date: row.date, amount: toCents(row.amount), count: row.count }));
  }

  /** What a customer paid: their approved orders, refunded ones left out. */
  async paidByCustomer(storeId: number, customerId: number): Promise<Cents> {
    const row = await this.dataSource
      .createQueryBuilder(Order, 'o')
      .select('coalesce(sum(o.amount), 0)::text', 'amount')
      .where("o.store_id = :storeId AND o.customer_id = :customerId AND o.status = 'approved'", { storeId, customerId })
      .getRawOne<{ amount: string }>();
    return toCents(row?.amount ?? '0');
  }

  /** Whether the store ever had an order approved. */
  hasSale(storeId: number): Promise<boolean> {
    return this.dataSource
      .createQueryBuilder(Order, 'o')
      .where('o.store_id = :storeId AND o.approved_at IS NOT NULL', { storeId })
      .getExists();
  }

  /** Subscriptions that started in the range. */
  countStarted(storeId: number, from: Date, to: Date): Promise<number> {
    return this.dataSource
      .createQueryBuilder(Subscription, 's')
      .where('s.store_id = :storeId', { storeId })
      .andWhere('s.start_date >= :from AND s.start_date < :to', { from, to })
      .getCount();
  }

  /** The store's subscriptions that are active now. */
  listActive(storeId: number): Promise<ActiveSubscription[]> {
    return this.dataSource.manager.find(Subscription, {
      select: { planId: true, interval: true, intervalCount: true },
      where: { storeId, status: 'active' },
    });
  }
}
