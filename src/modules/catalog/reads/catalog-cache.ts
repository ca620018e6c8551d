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

  /** Loads under way, by key: concurrent misses of one key share one read. */
  private readonly loading = new Map<string, Promise<object>>();
  /** Counts catalog writes: a read that started before one is not kept. */
  private generation = 0;

  /**
   * The value kept under `key`, or the one `load` reads (kept unless `keep` says otherwise, or a
   * catalog write came while it was read). With `share`, callers that miss the same key while it
   * is being read wait for that read instead of making their own: the requests in flight when a
   * row's time runs out then cost one statement, not one each. A read inside a caller's
   * transaction is never shared (its failure is that transaction's own).
   */
  async through<T extends object>(
    key: string,
    load: () => Promise<T>,
    keep: (value: T) => boolean,
    share = true,
  ): Promise<T> {
    const kept = this.entries.get(key) as T | undefined;
    if (kept !== undefined) return kept;
    if (!share) return this.read(key, load, keep);
    const pending = this.loading.get(key) as Promise<T> | undefined;
    if (pending) return pending;
    const read = this.read(key, load, keep).finally(() => {
      if (this.loading.get(key) === read) this.loading.delete(key);
    });
    this.loading.set(key, read);
    return read;
  }

  private async read<T extends object>(key: string, load: () => Promise<T>, keep: (value: T) => boolean): Promise<T> {
    const readSince = this.generation;
    const value = await load();
    if (keep(value)) this.keep(key, value, readSince);
    return value;
  }

  /** The value kept under `key`, if any. */
  kept<T extends object>(key: string): T | undefined {
    return this.entries.get(key) as T | undefined;
  }

  /** What a read started now passes to `keep`: a catalog write since then makes it stale. */
  version(): number {
    return this.generation;
  }

  /**
   * Keeps `value` under `key` (a row found: never a "not found"), unless a catalog write came
   * since the read began (`readSince`, from `version`), as `through` does.
   */
  keep(key: string, value: object, readSince: number): void {
    if (readSince === this.generation) this.entries.set(key, value);
  }

  /** A product or plan was written: nothing kept may be served again. */
  changed(): void {
    this.generation++;
    this.entries.clear();
    this.loading.clear();
  }
}
