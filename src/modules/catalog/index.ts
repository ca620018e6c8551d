/**
 * Catalog's public surface: what other modules, the app wiring, the CLI and the plugin API may
 * import (CONTRIBUTING.md, Layout). Everything else under catalog/ is private to the module.
 *
 * Entities, events and plain functions come first and Nest modules last: billing imports this file
 * and the catalog imports billing's sales port, so whichever loads first must find here what the
 * other uses while its classes are being declared.
 */
export { Product } from './products/product.entity';
export { Plan, type PlanInterval } from './plans/plan.entity';
export { ProductFile } from './files/product-file.entity';
export { OrderBump } from './order-bumps/order-bump.entity';
export {
  PLAN_DELETED,
  PLAN_HAS_SALES,
  planDeletedEvent,
  PRODUCT_DELETED,
  PRODUCT_HAS_SALES,
  productDeletedEvent,
} from './deletion-events';
export { PRODUCT_REVIEWED } from './products/product-reviewed.event';
export { fileLink } from './files/product-file.mapper';
export {
  FILE_STORAGE,
  newStorageKey,
  StoredObjectMissing,
  type ByteRange,
  type FileStorage,
} from './files/storage/file-storage';
export { STORAGE_DRIVERS, type StorageDriver } from './files/storage/storage-driver';

// Services the CLI and the seed use.
export { CatalogReads } from './reads/catalog-reads';
export { ProductsService, type ReviewDecision } from './products/products.service';
export { PlansService } from './plans/plans.service';
export { ProductFilesService } from './files/product-files.service';
export { OrderBumpsService } from './order-bumps/order-bumps.service';
// How a stored file is sent, `{cdn_url}` and buyers' download links alike (billing's pay surface).
export { continuedBytes, FileResponder } from './cdn/file-responder';

// Nest modules, last: they load the rest.
export { CatalogModule } from './catalog.module';
export { CatalogReadsModule } from './reads/catalog-reads.module';
export { CdnModule } from './cdn/cdn.module';
export { FileStorageModule } from './files/storage/file-storage.module';
export { OrderBumpsModule } from './order-bumps/order-bumps.module';
export { CatalogWebModule } from './web/catalog-web.module';
