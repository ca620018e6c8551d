import type { AppConfig } from '../../../../config/app-config';
import { ExtensionPoint } from '../../../../common/plugins/contributions';
import type { FileStorage } from './file-storage';

/**
 * A way to store product files, chosen by `STORAGE_DRIVER=<name>`. The built-in `local` and `s3`
 * are two of these; a plugin adds others through `definePlugin({ storageDrivers })`, with its own
 * settings captured when the plugin is registered.
 */
export interface StorageDriver {
  name: string;
  create(config: AppConfig): FileStorage | Promise<FileStorage>;
}

export const STORAGE_DRIVERS = new ExtensionPoint<StorageDriver>('storage drivers');
