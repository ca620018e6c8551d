import { Module } from '@nestjs/common';
import { PaymentGatewayRegistryModule } from '../../payment-gateway-registry.module';
import { StripeGateway } from './stripe.gateway';

/** Stripe Checkout, registered for `card` when `STRIPE_SECRET_KEY` is set. */
@Module({ imports: [PaymentGatewayRegistryModule], providers: [StripeGateway] })
export class StripeGatewayModule {}
