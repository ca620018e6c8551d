import type { Readable } from 'node:stream';
import { randomBase62 } from '../../../../common/crypto';

/** Inclusive byte range, as in an HTTP `Range: bytes=start-end` header. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where uploaded product files live. Keys are opaque and unguessable (they are part of the public
 * `{cdn_url}` link); sizes and content types are kept in the database, not asked of the driver.
 */
export interface FileStorage {
  /** Streams `body` to `key`; resolves with the number of bytes stored. */
  put(key: string, body: Readable, contentType: string): Promise<{ size: number }>;
  /** A stream of the object's bytes (or of `range`); rejects with {@link StoredObjectMissing}. */
  open(key: string, range?: ByteRange): Promise<Readable>;
  /** Removes the object; removing a missing object is not an error. */
  delete(key: string): Promise<void>;
}

export const FILE_STORAGE = Symbol('FILE_STORAGE');

export class StoredObjectMissing extends Error {
  constructor(key: string) {
    super(`Stored object ${key} is missing`);
  }
}

/** 32 base62 characters (~190 bits): a link cannot be guessed from another. */
export function newStorageKey(): string {
  return randomBase62(32);
}

export const STORAGE_KEY_PATTERN = /^[0-9A-Za-z]{32}$/;
