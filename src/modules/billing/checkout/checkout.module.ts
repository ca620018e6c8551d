import { Module } from '@nestjs/common';
import { BillingModule } from '../billing.module';
import { CheckoutAssetsController } from './assets.controller';
import { CheckoutErrorsFilter } from './checkout-errors.filter';
import { CheckoutController } from './checkout.controller';
import { CheckoutService } from './checkout.service';
import { PortalController } from './portal.controller';
import { CheckoutViews } from './views.service';

/** The hosted checkout and order portal under `{pay_url}` (README, *Taking payments*). */
@Module({
  imports: [BillingModule],
  controllers: [CheckoutController, PortalController, CheckoutAssetsController],
  providers: [CheckoutService, CheckoutViews, CheckoutErrorsFilter],
})
export class CheckoutModule {}
