import type { DynamicModule } from '@nestjs/common';
import { Readable } from 'node:stream';
import { definePlugin, StoredObjectMissing, type ByteRange, type FileStorage } from '../../src/plugins';

/** Product files in the process's memory: for demos and tests (`STORAGE_DRIVER=memory`). */
export class MemoryFileStorage implements FileStorage {
  readonly objects = new Map<string, { bytes: Buffer; contentType: string }>();

  async put(key: string, body: Readable, contentType: string): Promise<{ size: number }> {
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(Buffer.from(chunk as Buffer));
    const bytes = Buffer.concat(chunks);
    this.objects.set(key, { bytes, contentType });
    return { size: bytes.length };
  }

  async open(key: string, range?: ByteRange): Promise<Readable> {
    const object = this.objects.get(key);
    if (!object) throw new StoredObjectMissing(key);
    return Readable.from([range ? object.bytes.subarray(range.start, range.end + 1) : object.bytes]);
  }

  async delete(key: string): Promise<void> {
    this.objects.delete(key);
  }
}

export const MemoryStoragePlugin = {
  /** `storage`: the instance to use (a test keeps a reference to look inside). */
  register(storage: MemoryFileStorage = new MemoryFileStorage()): DynamicModule {
    return definePlugin({ name: 'memory-storage', storageDrivers: [{ name: 'memory', create: () => storage }] });
  },
};
