import { forwardRef, Module } from '@nestjs/common';
import { SalesModule } from '../billing';
import { IdentityModule } from '../identity';
import { FileResponder } from './cdn/file-responder';
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
import { CatalogReadsModule } from './reads/catalog-reads.module';
import { ProductsService } from './products/products.service';
import { IdempotencyModule } from '../../common/idempotency/idempotency.module';

/**
 * Products, files, plans and publishing. Other modules, the CLI and the plugin API use only what
 * catalog's `index.ts` exports (`ProductsService` for review and the demo seed, `PlansService`,
 * `ProductFilesService` for the dashboard's file lists, the storage types); the catalog asks
 * billing's `SalesRepository` whether a product or plan has sales. Billing reads products, plans,
 * bumps and files through the catalog's read port (`CatalogReads`, `CatalogReadsModule`).
 */
@Module({
  // Billing imports the catalog's entities and the catalog asks billing's sales port: the reference
  // is resolved once both files have loaded (src/modules/billing/index.ts).
  imports: [
    IdentityModule,
    FileStorageModule,
    IdempotencyModule,
    forwardRef(() => SalesModule),
    OrderBumpsModule,
    CatalogReadsModule,
  ],
  controllers: [ProductsController, ProductFilesController, PlansController],
  providers: [
    ProductsRepository,
    ProductFilesRepository,
    PlansRepository,
    ProductsService,
    ProductFilesService,
    PlansService,
    FileUploadInterceptor,
    FileResponder,
  ],
  exports: [ProductsService, PlansService, ProductFilesService, FileResponder],
})
export class CatalogModule {}
