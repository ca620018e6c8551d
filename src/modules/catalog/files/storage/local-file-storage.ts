import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ByteCounter } from './byte-counter';
import { ByteRange, FileStorage, STORAGE_KEY_PATTERN, StoredObjectMissing } from './file-storage';

/**
 * Files on the local disk under `$DATA_DIR/files`, sharded by the key's first two characters so no
 * directory grows without bound. A write lands in a `.part` file and is renamed when complete, so a
 * reader never sees half an upload.
 */
export class LocalFileStorage implements FileStorage {
  private readonly root: string;

  constructor(directory: string) {
    this.root = resolve(directory);
  }

  async put(key: string, body: Readable): Promise<{ size: number }> {
    const path = this.pathOf(key);
    const partial = `${path}.part`;
    await mkdir(join(path, '..'), { recursive: true });
    const counter = new ByteCounter();
    try {
      await pipeline(body, counter, createWriteStream(partial, { flags: 'wx' }));
      await rename(partial, path);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
    return { size: counter.bytes };
  }

  async open(key: string, range?: ByteRange): Promise<Readable> {
    const stream = createReadStream(this.pathOf(key), range ? { start: range.start, end: range.end } : {});
    return new Promise<Readable>((resolveOpen, reject) => {
      stream.once('open', () => resolveOpen(stream));
      stream.once('error', (error: NodeJS.ErrnoException) =>
        reject(error.code === 'ENOENT' ? new StoredObjectMissing(key) : error),
      );
    });
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  private pathOf(key: string): string {
    // Keys come from newStorageKey(); checking them keeps any other string out of the path.
    if (!STORAGE_KEY_PATTERN.test(key)) throw new StoredObjectMissing(key);
    return join(this.root, key.slice(0, 2), key);
  }
}
