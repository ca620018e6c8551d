import { Module } from '@nestjs/common';
import { PaymentGatewayRegistry } from './payment-gateway.registry';

/**
 * The one {@link PaymentGatewayRegistry} of the application. Gateway modules (built in or passed
 * from outside core) import this module and register their gateway in it.
 */
@Module({ providers: [PaymentGatewayRegistry], exports: [PaymentGatewayRegistry] })
export class PaymentGatewayRegistryModule {}
