import { Module } from '@nestjs/common';
import { BillingModule, PaymentGatewayRegistryModule } from '../modules/billing';

/**
 * What a plugin's classes (controllers, providers and extensions alike) may inject from core besides
 * the global providers (`DataSource`, `Transactions`, `DomainEvents`, `JobQueue`, `APP_CONFIG`,
 * `CLOCK`): imported into every module `definePlugin` makes, as Vendure's `PluginCommonModule` is.
 */
@Module({
  imports: [BillingModule, PaymentGatewayRegistryModule],
  exports: [BillingModule, PaymentGatewayRegistryModule],
})
export class PluginCommonModule {}
