import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { Transactions } from '../../src/plugins';
import { BlockedEmailDomain } from './blocked-domain.entity';

/** The plugin's table, always scoped to one store. */
@Injectable()
export class BlockedDomainsRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly transactions: Transactions,
  ) {}

  /** The store's blocked domains, in alphabetical order. */
  async list(storeId: number): Promise<string[]> {
    const rows = await this.dataSource.manager.find(BlockedEmailDomain, {
      where: { storeId },
      order: { domain: 'ASC' },
    });
    return rows.map((row) => row.domain);
  }

  /**
   * Replaces the store's list with `domains`, in one transaction: a checkout running meanwhile sees
   * the old list or the new one, never half of each.
   */
  replace(storeId: number, domains: readonly string[]): Promise<string[]> {
    return this.transactions.run(async (manager) => {
      await manager.delete(BlockedEmailDomain, { storeId });
      if (domains.length)
        await manager.insert(
          BlockedEmailDomain,
          domains.map((domain) => ({ storeId, domain })),
        );
      return [...domains].sort();
    });
  }

  /** Whether `domain` is blocked for the store, read in the caller's transaction when there is one. */
  isBlocked(storeId: number, domain: string, manager: EntityManager = this.dataSource.manager): Promise<boolean> {
    return manager.exists(BlockedEmailDomain, { where: { storeId, domain } });
  }
}
