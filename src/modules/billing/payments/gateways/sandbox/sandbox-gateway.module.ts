import { Module } from '@nestjs/common';
import { PaymentGatewayRegistryModule } from '../../payment-gateway-registry.module';
import { SandboxGateway } from './sandbox.gateway';

/** The sandbox gateway: test mode's always, live payments' while `PAYMENT_SANDBOX` is on. */
@Module({ imports: [PaymentGatewayRegistryModule], providers: [SandboxGateway] })
export class SandboxGatewayModule {}
