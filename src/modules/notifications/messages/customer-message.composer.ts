import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { DomainEvent } from '../../../common/events/domain-event';
import { AppConfig } from '../../../config/app-config';
import { APP_CONFIG } from '../../../config/config.module';
import { buyerOf, DownloadsService, LicensesService, OrderEventRows, OrdersService, portalUrl } from '../../billing';
import type { CustomerMessage, MessageRequest } from './customer-message';

export type Composed = { message: CustomerMessage } | { skip: string };

const NEEDS_CHECKOUT_LINK = new Set(['renewal_due', 'payment_failed']);

/**
 * Builds a message from what billing holds when the job runs (the order as it stands then), through
 * billing's exported reads. Nothing is changed unless the store emails its customers: a renewal's
 * first checkout link replaces the pay token the order was created with, so it is asked for last.
 */
@Injectable()
export class CustomerMessageComposer {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly rows: OrderEventRows,
    private readonly ordersService: OrdersService,
    private readonly downloads: DownloadsService,
    private readonly licenses: LicensesService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async compose(request: MessageRequest, event: DomainEvent): Promise<Composed> {
    const { order, product, plan, customer, store, subscription, bumps, licenseKeys, subscriptionPortal } =
      await this.rows.of(this.dataSource.manager, request.orderId);
    if (!store || !product || !customer) return { skip: 'The order refers to a missing store, product or customer.' };
    // The store's switch, read when the job runs.
    if (!store.emailCustomers) return { skip: 'The store does not email its customers.' };
    if (order.storeId !== event.storeId) return { skip: 'The order is not of the event’s store.' };

    let checkout: string | null = null;
    if (NEEDS_CHECKOUT_LINK.has(request.kind)) {
      checkout = await this.ordersService.checkoutUrlFor(order.id);
      if (!checkout) return { skip: `Order ${order.orderNumber} is no longer pending: nothing to pay.` };
    }
    // signed links valid 24 hours from this email, never the `{cdn_url}` address.
    const downloads = request.kind === 'receipt' ? await this.downloads.linksFor(order, bumps) : [];
    const keys =
      request.kind === 'receipt' && order.status === 'approved' ? licenseKeys.map((k) => this.licenses.view(k)) : [];
    const bumpsTotal = bumps.reduce((sum, b) => sum + b.price, 0);
    const buyer = buyerOf(order, customer);
    return {
      message: {
        id: `${request.kind}.${request.ref.replace(':', '-')}.${order.orderNumber}`,
        kind: request.kind,
        store: { id: store.id, name: store.name, brand: store.brand, test: store.liveStoreId !== null },
        customer: { name: buyer.name, email: customer.email, mobileNumber: buyer.mobileNumber },
        order: {
          number: order.orderNumber,
          status: order.status,
          currency: order.currency,
          amount: order.amount,
          discountAmount: order.discountAmount,
          couponCode: order.couponCode,
          paymentMethod: order.paymentMethod,
          transactionId: order.transactionId,
          items: [
            { name: product.name, amount: order.originalAmount - bumpsTotal },
            ...bumps.map((b) => ({ name: b.name, amount: b.price })),
          ],
        },
        product: { name: product.name },
        plan: plan ? { name: plan.name, interval: plan.interval, intervalCount: plan.intervalCount } : null,
        subscription: subscription
          ? {
              status: subscription.status,
              endDate: subscription.endDate,
              cancelledAt: subscription.cancelledAt,
              cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
            }
          : null,
        links: {
          // A renewal not yet tried links to its subscription's portal, as its webhooks do.
          portal: order.transactionId
            ? portalUrl(this.config.urls.pay, order.orderNumber, order.transactionId)
            : subscriptionPortal
              ? portalUrl(this.config.urls.pay, subscriptionPortal.orderNumber, subscriptionPortal.transactionId)
              : null,
          checkout,
          downloads: downloads.map((d) => ({ name: d.name, url: d.url, expires: d.expires })),
        },
        licenseKeys: keys.map((k) => ({ key: k.key, productPid: k.product_pid })),
        occurredAt: event.occurredAt,
      },
    };
  }
}
