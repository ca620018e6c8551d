import type { DataSource, EntityManager } from 'typeorm';

/** How a {@link GroupCommit} shares its transactions. */
export interface GroupCommitOptions<I> {
  /** Items in one transaction at most. */
  maxBatch: number;
  /** Transactions of this group open at once (the others' items wait and join the next). */
  maxInFlight: number;
  /**
   * Items with the same key never share a transaction: the second waits for the next one (two
   * outcomes of one payment must see each other's commit, not each other's snapshot).
   */
  keyOf(item: I): string | number;
}

interface Waiting<I, R> {
  item: I;
  resolve(result: R): void;
  reject(error: unknown): void;
}

/**
 * Group commit: the changes that arrive together are made in one transaction, so a burst of them
 * costs one BEGIN, one COMMIT and one statement for each step that `work` makes for all of them
 * (docs/performance.md, tenth round). Alone, a change starts its transaction at once (after the
 * current turn of the event loop, so that the changes of that turn go together); under load the
 * changes that come while transactions are open wait for the next, and the group grows with the
 * load.
 *
 * `work` gets the items of one transaction and returns one result for each, in order. When it
 * throws, nothing of that transaction stays: each item is then made again alone, in its own
 * transaction, and only the item that fails again fails (its caller gets that error). So `work`
 * must keep in memory nothing that a rolled-back attempt could have changed, and must make no
 * network call.
 */
export class GroupCommit<I, R> {
  private readonly waiting: Array<Waiting<I, R>> = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly work: (manager: EntityManager, items: I[]) => Promise<R[]>,
    private readonly options: GroupCommitOptions<I>,
  ) {}

  /** Makes the change of `item` with the others that come with it; resolves once it committed. */
  run(item: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.pump();
    });
  }

  private pump(): void {
    while (this.inFlight < this.options.maxInFlight && this.waiting.length) {
      const batch = this.take();
      this.inFlight++;
      void this.commit(batch).finally(() => {
        this.inFlight--;
        if (this.waiting.length) this.schedule();
      });
    }
  }

  /** The oldest waiting items, up to `maxBatch`, one per key; the rest stay in order. */
  private take(): Array<Waiting<I, R>> {
    const batch: Array<Waiting<I, R>> = [];
    const keys = new Set<string | number>();
    const left: Array<Waiting<I, R>> = [];
    for (const waiting of this.waiting) {
      const key = this.options.keyOf(waiting.item);
      if (batch.length < this.options.maxBatch && !keys.has(key)) {
        keys.add(key);
        batch.push(waiting);
      } else left.push(waiting);
    }
    this.waiting.splice(0, this.waiting.length, ...left);
    return batch;
  }

  private async commit(batch: Array<Waiting<I, R>>): Promise<void> {
    if (batch.length > 1) {
      let results: R[] | undefined;
      try {
        results = await this.dataSource.transaction((manager) =>
          this.work(
            manager,
            batch.map((w) => w.item),
          ),
        );
      } catch {
        // One of them failed (or the database did): each is made again alone, below.
      }
      if (results) {
        batch.forEach((waiting, i) => waiting.resolve(results[i]));
        return;
      }
    }
    await Promise.all(
      batch.map((waiting) =>
        this.dataSource
          .transaction((manager) => this.work(manager, [waiting.item]))
          .then(([result]) => waiting.resolve(result), waiting.reject),
      ),
    );
  }
}
