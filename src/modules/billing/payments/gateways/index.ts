import type { Type } from '@nestjs/common';
import { MpesaGatewayModule } from './mpesa/mpesa-gateway.module';
import { SandboxGatewayModule } from './sandbox/sandbox-gateway.module';
import { StripeGatewayModule } from './stripe/stripe-gateway.module';

/**
 * The gateways that ship with the service. Each registers itself when its configuration is set;
 * the application module imports them next to any gateway module passed from outside.
 */
export const BUILT_IN_PAYMENT_GATEWAYS: Type[] = [SandboxGatewayModule, MpesaGatewayModule, StripeGatewayModule];
