import { Module } from '@nestjs/common';

/** Products, files, plans and publishing (issue #4). */
@Module({})
export class CatalogModule {}
