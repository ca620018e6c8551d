import type { DataSource, EntityManager, QueryRunner } from 'typeorm';

/**
 * Reads kept for the rest of one transaction, by key: the orders of a group commit
 * (group-commit.ts) that each read the same row (their store's webhooks) read it once. Outside a
 * transaction nothing is kept. The memo of a transaction ends with it (commit or rollback), so a
 * connection's next transaction reads afresh.
 */
export class TransactionMemo<T> {
  private readonly kept = new WeakMap<QueryRunner, Map<string, Promise<T>>>();

  constructor(dataSource: DataSource) {
    const end = ({ queryRunner }: { queryRunner: QueryRunner }) => void this.kept.delete(queryRunner);
    dataSource.subscribers.push({ afterTransactionCommit: end, afterTransactionRollback: end });
  }

  /** `read()`'s answer, read once per transaction of `manager` and `key`. */
  get(manager: EntityManager | undefined, key: string, read: () => Promise<T>): Promise<T> {
    const runner = manager?.queryRunner;
    if (!runner?.isTransactionActive) return read();
    let reads = this.kept.get(runner);
    if (!reads) this.kept.set(runner, (reads = new Map()));
    let answer = reads.get(key);
    if (!answer) {
      answer = read();
      reads.set(key, answer);
      // A failed read is not kept: the transaction is failing anyway, and a retry reads again.
      answer.catch(() => reads.delete(key));
    }
    return answer;
  }
}
