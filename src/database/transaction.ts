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
