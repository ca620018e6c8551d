import { Module } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { AffiliatesModule } from '../affiliates/affiliates.module';
import { DiscountsModule } from '../discounts/discounts.module';
import { CatalogReadRepository } from './catalog-read/catalog-read.repository';
import { CustomersController } from './customers/customers.controller';
import { CustomersRepository } from './customers/customers.repository';
import { CustomersService } from './customers/customers.service';
import { OrderEventPayloads } from './events/order-event-payloads.service';
import { IdempotencyModule } from './idempotency/idempotency.module';
import { OrderTransitionsService } from './orders/order-transitions.service';
import { OrdersController } from './orders/orders.controller';
import { OrdersRepository } from './orders/orders.repository';
import { OrdersService } from './orders/orders.service';
import { PAYMENT_GATEWAY, PaymentGateway } from './payments/payment-gateway';
import { PaymentsController } from './payments/payments.controller';
import { PaymentsService } from './payments/payments.service';
import { SandboxGateway } from './payments/sandbox.gateway';
import { RenewalCharger } from './subscriptions/renewal-charger';
import { SubscriptionLifecycle } from './subscriptions/subscription-lifecycle.service';
import { SubscriptionSweep } from './subscriptions/subscription-sweep.service';
import { SubscriptionsController } from './subscriptions/subscriptions.controller';
import { SubscriptionsRepository } from './subscriptions/subscriptions.repository';
import { SubscriptionsService } from './subscriptions/subscriptions.service';

/** `PAYMENT_PROVIDER` picks the adapter; real gateways add a case here. */
function gatewayFor(config: AppConfig): PaymentGateway {
  switch (config.paymentProvider) {
    case 'sandbox':
      return new SandboxGateway(config.paymentSandboxSecret);
  }
}

/** Orders, customers, checkout, payments and subscriptions (issue #5). */
@Module({
  imports: [DiscountsModule, AffiliatesModule, IdempotencyModule],
  controllers: [OrdersController, CustomersController, PaymentsController, SubscriptionsController],
  providers: [
    CatalogReadRepository,
    OrdersRepository,
    CustomersRepository,
    SubscriptionsRepository,
    OrdersService,
    OrderTransitionsService,
    CustomersService,
    SubscriptionsService,
    SubscriptionLifecycle,
    RenewalCharger,
    SubscriptionSweep,
    PaymentsService,
    OrderEventPayloads,
    { provide: PAYMENT_GATEWAY, useFactory: gatewayFor, inject: [APP_CONFIG] },
  ],
  exports: [
    OrderEventPayloads,
    OrdersService,
    OrderTransitionsService,
    PaymentsService,
    SubscriptionsService,
    SubscriptionLifecycle,
    SubscriptionSweep,
    CustomersService,
    OrdersRepository,
    CatalogReadRepository,
  ],
})
export class BillingModule {}
