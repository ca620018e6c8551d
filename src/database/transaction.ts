import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

/**
 * Runs `work` in one transaction, or inside the caller's when a manager is passed, so services can
 * compose repository calls that must commit together.
 */
export function inTransaction<T>(
  dataSource: DataSource,
  work: (manager: EntityManager) => Promise<T>,
  outer?: EntityManager,
): Promise<T> {
  if (outer?.queryRunner?.isTransactionActive) return work(outer);
  return dataSource.transaction(work);
}

/**
 * {@link inTransaction} as a provider, for code that has no `DataSource` of its own to pass (a
 * plugin's services, through the plugin API). Make no network call inside `work`: claim, commit,
 * call, then record the outcome in a second transaction.
 */
@Injectable()
export class Transactions {
  constructor(private readonly dataSource: DataSource) {}

  /** `work` in a new transaction, or in `outer`'s when one is open (its commit is the caller's). */
  run<T>(work: (manager: EntityManager) => Promise<T>, outer?: EntityManager): Promise<T> {
    return inTransaction(this.dataSource, work, outer);
  }
}
