import { forwardRef, Module } from '@nestjs/common';
import { AffiliatesModule } from '../affiliates';
import { CatalogReadsModule } from '../catalog';
import { DiscountsModule } from '../discounts';
import { IdentityModule } from '../identity';
import { CustomersController } from './customers/customers.controller';
import { CustomersRepository } from './customers/customers.repository';
import { CustomersService } from './customers/customers.service';
import { DeliveryKeys } from './delivery/delivery-keys';
import { DownloadsController } from './downloads/downloads.controller';
import { DownloadsRepository } from './downloads/downloads.repository';
import { DownloadsService } from './downloads/downloads.service';
import { LicenseRateLimitGuard } from './licenses/license-rate-limit.guard';
import { LicensesController } from './licenses/licenses.controller';
import { LicensesRepository } from './licenses/licenses.repository';
import { LicensesService } from './licenses/licenses.service';
import { LicenseOrderHooks } from './licenses/license-order.hooks';
import { PublicLicensesController } from './licenses/public-licenses.controller';
import { OrderEventPayloads } from './events/order-event-payloads.service';
import { IdempotencyModule } from '../../common/idempotency/idempotency.module';
import { CheckoutRules } from './orders/checkout-rules';
import { CatalogDeletionsHook } from './orders/catalog-deletions.hook';
import { CouponReuseHook } from './orders/coupon-reuse.hook';
import { OrderFactory } from './orders/order-factory';
import { OrderEventRows } from './events/order-event-rows';
import { OrderProcessModule } from './orders/order-process';
import { OrderTransitionsService } from './orders/order-transitions.service';
import { OrdersController } from './orders/orders.controller';
import { OrdersRepository } from './orders/orders.repository';
import { OrdersService } from './orders/orders.service';
import { PaymentAttemptsRepository } from './payments/payment-attempts.repository';
import { PaymentGatewayRegistryModule } from './payments/payment-gateway-registry.module';
import { PaymentReconciler } from './payments/payment-reconciler';
import { PaymentsController } from './payments/payments.controller';
import { CheckoutPaymentsService } from './payments/checkout-payments.service';
import { PaymentsService } from './payments/payments.service';
import { ReportsController } from './reports/reports.controller';
import { SalesReportRepository } from './reports/sales-report.repository';
import { SalesReportService } from './reports/sales-report.service';
import { SalesModule } from './sales/sales.module';
import { RenewalCharger } from './subscriptions/renewal-charger';
import { SubscriptionLifecycle } from './subscriptions/subscription-lifecycle.service';
import { SubscriptionSweep } from './subscriptions/subscription-sweep.service';
import { SubscriptionsController } from './subscriptions/subscriptions.controller';
import { SubscriptionsRepository } from './subscriptions/subscriptions.repository';
import { SubscriptionsService } from './subscriptions/subscriptions.service';
import { SubscriptionOrderHooks } from './subscriptions/subscription-order.hooks';

/**
 * Orders, customers, checkout, payments and subscriptions (issue #5). Payment gateways are not
 * named here: their modules register in the {@link PaymentGatewayRegistryModule} (README, *Taking payments*).
 */
@Module({
  imports: [
    OrderProcessModule,
    IdentityModule,
    // Discounts and affiliates hook into billing's order process (src/modules/billing/index.ts):
    // whichever file loads first, these references are resolved once both have loaded.
    forwardRef(() => DiscountsModule),
    forwardRef(() => AffiliatesModule),
    IdempotencyModule,
    SalesModule,
    // The catalog's read port; the catalog's index may still be loading when this file is.
    forwardRef(() => CatalogReadsModule),
    PaymentGatewayRegistryModule,
  ],
  controllers: [
    OrdersController,
    DownloadsController,
    PublicLicensesController,
    LicensesController,
    CustomersController,
    PaymentsController,
    SubscriptionsController,
    ReportsController,
  ],
  providers: [
    OrdersRepository,
    CustomersRepository,
    SubscriptionsRepository,
    OrdersService,
    OrderFactory,
    CheckoutRules,
    OrderTransitionsService,
    CouponReuseHook,
    CatalogDeletionsHook,
    CustomersService,
    SubscriptionsService,
    SubscriptionOrderHooks,
    SubscriptionLifecycle,
    RenewalCharger,
    SubscriptionSweep,
    PaymentsService,
    CheckoutPaymentsService,
    OrderEventPayloads,
    OrderEventRows,
    PaymentAttemptsRepository,
    PaymentReconciler,
    SalesReportRepository,
    SalesReportService,
    DeliveryKeys,
    DownloadsRepository,
    DownloadsService,
    LicensesRepository,
    LicensesService,
    LicenseOrderHooks,
    LicenseRateLimitGuard,
  ],
  exports: [
    LicensesService,
    DownloadsService,
    OrderEventPayloads,
    OrderEventRows,
    OrdersService,
    OrderTransitionsService,
    PaymentsService,
    CheckoutPaymentsService,
    SubscriptionsService,
    SubscriptionLifecycle,
    SubscriptionSweep,
    CustomersService,
    OrdersRepository,
    SalesReportService,
  ],
})
export class BillingModule {}
