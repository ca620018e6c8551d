import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AppConfig } from '../../../config/app-config';
import { APP_CONFIG } from '../../../config/config.module';
import { AffiliatesService } from '../../affiliates';
import { LicensesService } from '../licenses/licenses.service';
import { OrderEventRows } from './order-event-rows';
import { buildOrderEventPayload } from './order-event-payload';
import type { OrderEventKind, OrderEventPayload } from './order-events';

/**
 * The webhook payload of an order as it stands in `manager`'s transaction: what billing offers the
 * listeners of its domain events (the webhook outbox builds its deliveries with it).
 */
@Injectable()
export class OrderEventPayloads {
  constructor(
    private readonly rows: OrderEventRows,
    private readonly affiliates: AffiliatesService,
    private readonly licenses: LicensesService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async build(kind: OrderEventKind, orderId: number, manager: EntityManager): Promise<OrderEventPayload> {
    const { order, product, plan, customer, store, subscription, bumps, licenseKeys, subscriptionPortal } =
      await this.rows.of(manager, orderId);
    const affiliate =
      order.affiliateId !== null ? await this.affiliates.ofOrder(order.storeId, order.affiliateId, manager) : null;
    if (!product || !customer || !store)
      throw new Error(`Order ${orderId} refers to a missing product, customer or store`);
    const payload = buildOrderEventPayload(kind, {
      order,
      product,
      plan,
      customer,
      store,
      subscription,
      affiliate,
      bumps,
      payUrl: this.config.urls.pay,
      subscriptionPortal,
    });
    if (order.status !== 'approved' || !licenseKeys.length) return payload;
    // Before `test`, which stays the last field (README, *Test mode*).
    const { test, ...fields } = payload;
    return { ...fields, license_keys: licenseKeys.map((key) => this.licenses.view(key)), test };
  }
}
