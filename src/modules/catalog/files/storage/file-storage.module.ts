import { Module } from '@nestjs/common';
import { AppConfig } from '../../../../config/app-config';
import { APP_CONFIG } from '../../../../config/config.module';
import { FILE_STORAGE, FileStorage } from './file-storage';
import { LocalFileStorage } from './local-file-storage';

export async function createFileStorage(config: AppConfig): Promise<FileStorage> {
  const storage = config.storage;
  if (storage.driver === 'local') return new LocalFileStorage(storage.directory);
  // The AWS SDK is large; a deployment on the local disk never loads it.
  const { createS3Client, S3FileStorage } = await import('./s3-file-storage');
  return new S3FileStorage(createS3Client(storage), storage.bucket);
}

/** The configured storage driver, shared by the API (uploads) and the CDN surface (downloads). */
@Module({
  providers: [{ provide: FILE_STORAGE, inject: [APP_CONFIG], useFactory: createFileStorage }],
  exports: [FILE_STORAGE],
})
export class FileStorageModule {}
