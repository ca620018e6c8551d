import { DynamicModule, Type } from '@nestjs/common';
import { Routes } from '@nestjs/core';
import { AppConfig } from './config/app-config';
import { AffiliatesModule } from './modules/affiliates';
import { BillingModule, BillingWebModule, CheckoutModule } from './modules/billing';
import { CatalogModule, CatalogWebModule, CdnModule, OrderBumpsModule } from './modules/catalog';
import { IdentityModule, IdentityWebModule, StoreSettingsWebModule } from './modules/identity';
import { WebhooksModule, WebhooksWebModule } from './modules/webhooks';
import { DiscountsModule, DiscountsWebModule } from './modules/discounts';
import { HealthModule } from './modules/health';
import { TestModeModule } from './modules/test-mode';
import { NotificationsModule } from './modules/notifications';

/**
 * The four surfaces (README, *Configuration*), each mounted at the path of its configured URL. A module
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
  NotificationsModule,
  TestModeModule,
];
export const WEB_MODULES: Type[] = [
  IdentityWebModule,
  StoreSettingsWebModule,
  WebhooksWebModule,
  BillingWebModule,
  CatalogWebModule,
  DiscountsWebModule,
];
export const PAY_MODULES: Type[] = [CheckoutModule];
export const CDN_MODULES: Type[] = [CdnModule];

/** Plugins' controllers are API routes: mounted with core's under `{base_url}`, behind the same guard. */
export function surfaceRoutes(config: AppConfig, plugins: Array<Type | DynamicModule> = []): Routes {
  const mount = (path: string, modules: Type[]) => (modules.length ? [{ path: path || '/', children: modules }] : []);
  const pluginModules = plugins.map((plugin) => ('module' in plugin ? plugin.module : plugin));
  return [
    ...mount(config.paths.base, [...API_MODULES, ...pluginModules]),
    ...mount(config.paths.web, WEB_MODULES),
    ...mount(config.paths.pay, PAY_MODULES),
    ...mount(config.paths.cdn, CDN_MODULES),
  ];
}
