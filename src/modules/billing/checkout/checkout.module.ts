import { forwardRef, Module } from '@nestjs/common';
import { CatalogModule, CatalogReadsModule } from '../../catalog';
import { IdentityModule } from '../../identity';
import { BillingModule } from '../billing.module';
import { CheckoutAssetsController } from './assets.controller';
import { BuyController } from './buy.controller';
import { BuyLinks } from './buy-links.service';
import { CheckoutErrorsFilter } from './checkout-errors.filter';
import { CheckoutController } from './checkout.controller';
import { CheckoutService } from './checkout.service';
import { DownloadController } from './download.controller';
import { PayNotFoundController } from './not-found.controller';
import { PortalController } from './portal.controller';
import { CheckoutViews } from './views.service';

/** The hosted checkout, buy links, the order portal and buyers' download links under `{pay_url}`. */
@Module({
  // The catalog's index may still be loading when this file is (src/modules/billing/index.ts).
  imports: [BillingModule, forwardRef(() => CatalogModule), forwardRef(() => CatalogReadsModule), IdentityModule],
  controllers: [
    CheckoutController,
    PortalController,
    CheckoutAssetsController,
    DownloadController,
    BuyController,
    PayNotFoundController,
  ],
  providers: [CheckoutService, CheckoutViews, CheckoutErrorsFilter, BuyLinks],
})
export class CheckoutModule {}
