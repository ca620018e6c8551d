import { Module } from '@nestjs/common';
import { SalesModule } from '../billing/sales/sales.module';
import { IdentityModule } from '../identity/identity.module';
import { OrderBumpsModule } from './order-bumps/order-bumps.module';
import { FileUploadInterceptor } from './files/file-upload.interceptor';
import { ProductFilesController } from './files/product-files.controller';
import { ProductFilesRepository } from './files/product-files.repository';
import { ProductFilesService } from './files/product-files.service';
import { FileStorageModule } from './files/storage/file-storage.module';
import { PlansController } from './plans/plans.controller';
import { PlansRepository } from './plans/plans.repository';
import { PlansService } from './plans/plans.service';
import { ProductsController } from './products/products.controller';
import { ProductsRepository } from './products/products.repository';
import { ProductsService } from './products/products.service';
import { IdempotencyModule } from '../../common/idempotency/idempotency.module';

/**
 * Products, files, plans and publishing (issue #4). Other modules use the exported services:
 * `ProductsService.findForStore`, `PlansService.findForStore`, `ProductFilesService.filesOfProduct`.
 */
@Module({
  imports: [IdentityModule, FileStorageModule, IdempotencyModule, SalesModule, OrderBumpsModule],
  controllers: [ProductsController, ProductFilesController, PlansController],
  providers: [
    ProductsRepository,
    ProductFilesRepository,
    PlansRepository,
    ProductsService,
    ProductFilesService,
    PlansService,
    FileUploadInterceptor,
  ],
  exports: [ProductsService, PlansService, ProductFilesService],
})
export class CatalogModule {}
