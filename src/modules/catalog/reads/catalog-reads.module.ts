import { Module } from '@nestjs/common';
import { CatalogCache } from './catalog-cache';
import { CatalogReads } from './catalog-reads';

/**
 * The catalog's read port on its own, without the catalog's controllers and services: billing
 * imports it. One `CatalogCache` per application, which the catalog's repositories empty on writes.
 */
@Module({ providers: [CatalogCache, CatalogReads], exports: [CatalogReads, CatalogCache] })
export class CatalogReadsModule {}
