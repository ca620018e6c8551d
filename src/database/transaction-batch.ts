import DataLoader from 'dataloader';
import type { DataSource, EntityManager, QueryRunner } from 'typeorm';

/**
 * Statements of one transaction made together: the calls of `load` made in the same tick on one
 * transaction (the events of a group of payments, published together) run as one `batch` call,
 * on that transaction's connection. Outside a transaction each call is a batch of its own. Like
 * `TransactionMemo`, nothing outlives the transaction.
 */
export class TransactionBatch<K, V> {
  private readonly loaders = new WeakMap<QueryRunner, DataLoader<K, V>>();

  constructor(
    dataSource: DataSource,
    private readonly batch: (manager: EntityManager, keys: readonly K[]) => Promise<V[]>,
  ) {
    const end = ({ queryRunner }: { queryRunner: QueryRunner }) => void this.loaders.delete(queryRunner);
    dataSource.subscribers.push({ afterTransactionCommit: end, afterTransactionRollback: end });
  }

  load(manager: EntityManager, key: K): Promise<V> {
    const runner = manager.queryRunner;
    if (!runner?.isTransactionActive) return this.batch(manager, [key]).then(([value]) => value);
    let loader = this.loaders.get(runner);
    if (!loader) {
      loader = new DataLoader<K, V>((keys) => this.batch(manager, keys), { cache: false });
      this.loaders.set(runner, loader);
    }
    return loader.load(key);
  }
}
