import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';

/**
 * The rows of products and plans that every order creation, payment and order read ask for, and
 * the files a receipt links, kept in this process for a moment: a store sells the same few
 * products thousands of times. The catalog's repositories empty it on every write of a product,
 * plan or file (`changed`), so this process never serves a row older than its own last write;
 * another process's write reaches it within `TTL_MS` (README, *Architecture*: the catalog's read
 * port). Of products and plans only rows found are kept: a product created a moment ago is never
 * "not found" here.
 */
@Injectable()
export class CatalogCache {
  static readonly TTL_MS = 1_000;
  private readonly entries = new LRUCache<string, object>({ max: 10_000, ttl: CatalogCache.TTL_MS });

  /** The value kept under `key`, or the one `load` reads (kept unless `keep` says otherwise). */
  async through<T extends object>(key: string, load: () => Promise<T>, keep: (value: T) => boolean): Promise<T> {
    const kept = this.entries.get(key) as T | undefined;
    if (kept !== undefined) return kept;
    const value = await load();
    if (keep(value)) this.entries.set(key, value);
    return value;
  }

  /** The value kept under `key`, if any. */
  kept<T extends object>(key: string): T | undefined {
    return this.entries.get(key) as T | undefined;
  }

  /** Keeps `value` under `key` (a row found: never a "not found"). */
  keep(key: string, value: object): void {
    this.entries.set(key, value);
  }

  /** A product or plan was written: nothing kept may be served again. */
  changed(): void {
    this.entries.clear();
  }
}
