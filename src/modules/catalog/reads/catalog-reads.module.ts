import { Module } from '@nestjs/common';
import { CatalogReads } from './catalog-reads';

/** The catalog's read port on its own, without the catalog's controllers and services: billing imports it. */
@Module({ providers: [CatalogReads], exports: [CatalogReads] })
export class CatalogReadsModule {}
