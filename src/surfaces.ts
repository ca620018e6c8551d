import { Type } from '@nestjs/common';
import { Routes } from '@nestjs/core';
import { AppConfig } from './config/app-config';
import { AffiliatesModule } from './modules/affiliates/affiliates.module';
import { BillingModule } from './modules/billing/billing.module';
import { CatalogModule } from './modules/catalog/catalog.module';
import { CdnModule } from './modules/catalog/cdn/cdn.module';
import { OrderBumpsModule } from './modules/catalog/order-bumps/order-bumps.module';
import { CheckoutModule } from './modules/billing/checkout/checkout.module';
import { BillingWebModule } from './modules/billing/web/billing-web.module';
import { IdentityWebModule } from './modules/identity/web/identity-web.module';
import { WebhooksWebModule } from './modules/webhooks/web/webhooks-web.module';
import { DiscountsModule } from './modules/discounts/discounts.module';
import { HealthModule } from './modules/health/health.module';
import { IdentityModule } from './modules/identity/identity.module';
import { WebhooksModule } from './modules/webhooks/webhooks.module';

/**
 * The four surfaces of decisions §1, each mounted at the path of its configured URL. A module
 * belongs to exactly one surface; a bounded context with pages (dashboard, checkout, CDN) has a
 * separate module for them.
 */
export const API_MODULES: Type[] = [
  HealthModule,
  IdentityModule,
  CatalogModule,
  OrderBumpsModule,
  BillingModule,
  DiscountsModule,
  WebhooksModule,
  AffiliatesModule,
];
export const WEB_MODULES: Type[] = [IdentityWebModule, WebhooksWebModule, BillingWebModule];
export const PAY_MODULES: Type[] = [CheckoutModule];
export const CDN_MODULES: Type[] = [CdnModule];

export function surfaceRoutes(config: AppConfig): Routes {
  const mount = (path: string, modules: Type[]) => (modules.length ? [{ path: path || '/', children: modules }] : []);
  return [
    ...mount(config.paths.base, API_MODULES),
    ...mount(config.paths.web, WEB_MODULES),
    ...mount(config.paths.pay, PAY_MODULES),
    ...mount(config.paths.cdn, CDN_MODULES),
  ];
}
