import type { Request } from 'express';
import type { StorageEngine } from 'multer';
import { contentTypeFor } from './content-type';
import { FileStorage, newStorageKey } from './file-storage';

/** What the engine adds to multer's file object. */
export interface StoredUpload {
  key: string;
  size: number;
  contentType: string;
}

export class StorageWriteError extends Error {
  constructor(override readonly cause: unknown) {
    super('The storage driver could not store an upload');
  }
}

export type UploadedFile = Express.Multer.File & StoredUpload;

/**
 * A multer storage engine that streams each part straight into the storage driver: nothing is
 * buffered whole in memory or on a temporary disk. multer removes a stored part itself (through
 * `_removeFile`) when the request fails afterwards, e.g. on the size limit.
 */
export class DriverMulterEngine implements StorageEngine {
  constructor(private readonly storage: FileStorage) {}

  _handleFile(_req: Request, file: Express.Multer.File, callback: (error?: unknown, info?: Partial<UploadedFile>) => void): void {
    const key = newStorageKey();
    const contentType = contentTypeFor(file.originalname, file.mimetype);
    let bodyFailed = false;
    file.stream.once('error', () => (bodyFailed = true));
    this.storage.put(key, file.stream, contentType).then(
      ({ size }) => callback(null, { key, size, contentType }),
      // A broken request body is the client's fault; a failing driver is ours (500).
      (error: unknown) => callback(bodyFailed ? error : new StorageWriteError(error)),
    );
  }

  _removeFile(_req: Request, file: Express.Multer.File & Partial<StoredUpload>, callback: (error: Error | null) => void): void {
    if (!file.key) return callback(null);
    this.storage.delete(file.key).then(
      () => callback(null),
      (error: Error) => callback(error),
    );
  }
}
