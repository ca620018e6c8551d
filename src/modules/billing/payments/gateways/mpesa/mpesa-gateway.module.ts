import { Module } from '@nestjs/common';
import { PaymentGatewayRegistryModule } from '../../payment-gateway-registry.module';
import { MpesaGateway } from './mpesa.gateway';

/** M-Pesa Mozambique, registered for `mpesa` when its MPESA_* variables are set. */
@Module({ imports: [PaymentGatewayRegistryModule], providers: [MpesaGateway] })
export class MpesaGatewayModule {}
