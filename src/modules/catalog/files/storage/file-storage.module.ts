import { Module } from '@nestjs/common';
import { AppConfig } from '../../../../config/app-config';
import { APP_CONFIG } from '../../../../config/config.module';
import { FILE_STORAGE, FileStorage } from './file-storage';
import { LocalFileStorage } from './local-file-storage';
import { createS3Client, S3FileStorage } from './s3-file-storage';

export function createFileStorage(config: AppConfig): FileStorage {
  const storage = config.storage;
  if (storage.driver === 's3') return new S3FileStorage(createS3Client(storage), storage.bucket);
  return new LocalFileStorage(storage.directory);
}

/** The configured storage driver, shared by the API (uploads) and the CDN surface (downloads). */
@Module({
  providers: [{ provide: FILE_STORAGE, inject: [APP_CONFIG], useFactory: createFileStorage }],
  exports: [FILE_STORAGE],
})
export class FileStorageModule {}
