import { Inject, Injectable } from '@nestjs/common';
import { CatalogReads } from '../../catalog';
import { SellersService } from '../../identity';
import { NotFoundError, ValidationError } from '../../../common/errors/app-error';
import { Cents } from '../../../common/money';
import { Clock, CLOCK } from '../../../common/time';
import {
  addUtcDays,
  daysBetween,
  daysFrom,
  DEFAULT_REPORT_DAYS,
  MAX_REPORT_DAYS,
  monthlyRecurringRevenue,
  startOfUtcDay,
  utcDate,
} from './sales-report';
import { SalesReportRepository } from './sales-report.repository';

export interface SalesReport {
  currency: string;
  from: string;
  to: string;
  gross: Cents;
  refunded: Cents;
  ordersPaid: number;
  ordersRefunded: number;
  newSubscriptions: number;
  activeSubscriptions: number;
  mrr: Cents;
  days: Array<{ date: string; gross: Cents; refunded: Cents; ordersPaid: number }>;
}

/**
 * The store's sales over a range of UTC days (`GET /v1/reports/sales` and the dashboard's home
 * page show the same numbers): money in, money refunded, per day and in total, and the
 * subscriptions' recurring revenue.
 */
@Injectable()
export class SalesReportService {
  constructor(
    private readonly sums: SalesReportRepository,
    private readonly catalog: CatalogReads,
    private readonly sellers: SellersService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** The store's currency (every amount of its orders and plans is in it). */
  async currencyOf(storeId: number): Promise<string | null> {
    return (await this.sellers.findStore(storeId))?.currency ?? null;
  }

  /** What a customer of the store paid (approved orders; refunded ones are not counted). */
  paidByCustomer(storeId: number, customerId: number): Promise<Cents> {
    return this.sums.paidByCustomer(storeId, customerId);
  }

  /** Whether the store ever had a paid order (refunded since or not). */
  hasSales(storeId: number): Promise<boolean> {
    return this.sums.hasSale(storeId);
  }

  /** `from`/`to` already have the form `YYYY-MM-DD` (the DTO); this checks the range. */
  async report(storeId: number, range: { from?: string; to?: string }): Promise<SalesReport> {
    const { from, to } = resolveRange(range, this.clock.now());
    const store = await this.sellers.findStore(storeId);
    if (!store) throw new NotFoundError();
    const start = startOfUtcDay(from);
    const end = startOfUtcDay(addUtcDays(to, 1));
    const [approved, refunds, newSubscriptions, active] = await Promise.all([
      this.sums.approvedPerDay(storeId, start, end),
      this.sums.refundedPerDay(storeId, start, end),
      this.sums.countStarted(storeId, start, end),
      this.sums.listActive(storeId),
    ]);
    const plans = await this.catalog.findPlans([...new Set(active.map((s) => s.planId))]);
    const mrr = monthlyRecurringRevenue(
      active.flatMap((s) => {
        const plan = plans.get(s.planId);
        return plan ? [{ price: plan.price, interval: s.interval, intervalCount: s.intervalCount }] : [];
      }),
    );
    const approvedOn = new Map(approved.map((d) => [d.date, d]));
    const refundedOn = new Map(refunds.map((d) => [d.date, d]));
    const sum = (list: Array<{ amount: Cents }>) => list.reduce((total, d) => total + d.amount, 0);
    const count = (list: Array<{ count: number }>) => list.reduce((total, d) => total + d.count, 0);
    return {
      currency: store.currency,
      from,
      to,
      gross: sum(approved),
      refunded: sum(refunds),
      ordersPaid: count(approved),
      ordersRefunded: count(refunds),
      newSubscriptions,
      activeSubscriptions: active.length,
      mrr,
      days: daysBetween(from, to).map((date) => ({
        date,
        gross: approvedOn.get(date)?.amount ?? 0,
        refunded: refundedOn.get(date)?.amount ?? 0,
        ordersPaid: approvedOn.get(date)?.count ?? 0,
      })),
    };
  }
}

/** No sale is older: a day before it is refused (a report of year 0 would reach before the calendar's start). */
const EARLIEST_REPORT_DAY = '1970-01-01';

/** Defaults: `to` today (UTC), `from` 29 days before `to`; `from` ≤ `to`, at most 366 days. */
function resolveRange(range: { from?: string; to?: string }, now: Date): { from: string; to: string } {
  const to = range.to ?? utcDate(now);
  const from = range.from ?? addUtcDays(to, -(DEFAULT_REPORT_DAYS - 1));
  for (const [field, date] of [
    ['from', from],
    ['to', to],
  ] as const)
    if (date < EARLIEST_REPORT_DAY)
      throw ValidationError.field(field, `${field} must be on or after ${EARLIEST_REPORT_DAY}.`);
  // Compared as days, not as text: the text of a year past 9999 does not sort.
  const span = daysFrom(from, to);
  if (span < 0) throw ValidationError.field('from', 'from must not be after to.');
  if (span > MAX_REPORT_DAYS - 1)
    throw ValidationError.field('to', `The range may cover at most ${MAX_REPORT_DAYS} days.`);
  return { from, to };
}
