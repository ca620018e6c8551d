import { Module } from '@nestjs/common';
import { Contributions } from '../../../../common/plugins/contributions';
import { AppConfig } from '../../../../config/app-config';
import { APP_CONFIG } from '../../../../config/config.module';
import { FILE_STORAGE, FileStorage } from './file-storage';
import { LocalFileStorage } from './local-file-storage';
import { STORAGE_DRIVERS, StorageDriver } from './storage-driver';

export const BUILT_IN_STORAGE_DRIVERS: readonly StorageDriver[] = [
  {
    name: 'local',
    create: (config) => new LocalFileStorage(config.storage.driver === 'local' ? config.storage.directory : ''),
  },
  {
    name: 's3',
    async create({ storage }) {
      if (storage.driver !== 's3' || !('bucket' in storage)) throw new Error('The s3 driver needs the S3_* settings');
      // The AWS SDK is large; a deployment on the local disk never loads it.
      const { createS3Client, S3FileStorage } = await import('./s3-file-storage');
      return new S3FileStorage(createS3Client(storage), storage.bucket);
    },
  },
];

/** The driver `STORAGE_DRIVER` names among the built-in ones and those of the plugins. */
export async function createFileStorage(
  config: AppConfig,
  plugins: readonly StorageDriver[] = [],
): Promise<FileStorage> {
  const drivers = [...BUILT_IN_STORAGE_DRIVERS, ...plugins];
  const names = drivers.map((d) => d.name);
  const twice = names.find((name, i) => names.indexOf(name) !== i);
  if (twice) throw new Error(`Two storage drivers are named ${twice}`);
  const driver = drivers.find((d) => d.name === config.storage.driver);
  if (!driver) {
    throw new Error(
      `Invalid configuration: STORAGE_DRIVER=${JSON.stringify(config.storage.driver)} names no storage driver (${drivers.map((d) => d.name).join(', ')})`,
    );
  }
  return driver.create(config);
}

/** The configured storage driver, shared by the API (uploads) and the CDN surface (downloads). */
@Module({
  providers: [
    {
      provide: FILE_STORAGE,
      inject: [APP_CONFIG, { token: Contributions, optional: true }],
      useFactory: (config: AppConfig, contributions?: Contributions) =>
        createFileStorage(config, contributions?.of(STORAGE_DRIVERS)),
    },
  ],
  exports: [FILE_STORAGE],
})
export class FileStorageModule {}
