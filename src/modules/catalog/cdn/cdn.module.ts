import { Module } from '@nestjs/common';
import { CatalogModule } from '../catalog.module';
import { FileStorageModule } from '../files/storage/file-storage.module';
import { CdnController } from './cdn.controller';

/** Uploaded product files served under `{cdn_url}`. */
@Module({
  imports: [CatalogModule, FileStorageModule],
  controllers: [CdnController],
})
export class CdnModule {}
