import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { inTransaction } from '../../database/transaction';
import { SalesRepository } from '../billing';
import { ProductFilesService } from '../catalog';

/**
 * Tables a reset of test data leaves alone although they hold a `store_id`: the store itself, its
 * keys (a test key keeps working after a reset) and OAuth, which is live only.
 */
const KEPT = new Set(['stores', 'api_keys', 'oauth_apps', 'oauth_grants', 'oauth_tokens', 'oauth_authorization_codes']);

/** What the answer calls a table's rows (`product_files` are the API's `files`). */
const RESOURCE_NAMES: Record<string, string> = { product_files: 'files' };

export interface PurgeResult {
  /** Rows removed per resource, every resource of the store's data named (0 included). */
  deleted: Record<string, number>;
  /** Storage keys of the uploaded files whose rows were removed: the objects to delete after commit. */
  storageKeys: string[];
}

/**
 * Removes the data of one test store (README, *Test mode*). The tables are found in the schema
 * rather than listed: every table with a `store_id` column (a module's new table included) is the
 * store's data, and so are the rows of a table without one that hang on its orders by `order_id`.
 * Tables are emptied children first, in the order of their foreign keys, in one transaction. Test
 * mode names no module's table: billing says which orders the store has and the catalog which
 * stored objects its files hold, both in that transaction.
 */
@Injectable()
export class TestDataRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly sales: SalesRepository,
    private readonly files: ProductFilesService,
  ) {}

  purge(storeId: number): Promise<PurgeResult> {
    return inTransaction(this.dataSource, async (manager) => {
      const { byStore, byOrder } = await this.tables(manager);
      const storageKeys = await this.files.storageKeysOfStore(storeId, manager);
      const orderIds = byOrder.length ? await this.sales.orderIdsOfStore(storeId, manager) : [];
      const deleted: Record<string, number> = {};
      for (const table of await this.childrenFirst(manager, [...byOrder, ...byStore])) {
        const [sql, param] = byOrder.includes(table)
          ? [`DELETE FROM "${table}" WHERE order_id = ANY($1::int[])`, orderIds]
          : [`DELETE FROM "${table}" WHERE store_id = $1`, storeId];
        const [, affected] = (await manager.query(sql, [param])) as [unknown, number];
        deleted[RESOURCE_NAMES[table] ?? table] = affected;
      }
      const sorted = Object.fromEntries(Object.entries(deleted).sort(([a], [b]) => a.localeCompare(b)));
      return { deleted: sorted, storageKeys };
    });
  }

  /** The store's tables: those with `store_id`, and those without one that have `order_id`. */
  private async tables(manager: EntityManager): Promise<{ byStore: string[]; byOrder: string[] }> {
    const rows = (await manager.query(
      `SELECT table_name AS name, bool_or(column_name = 'store_id') AS by_store, bool_or(column_name = 'order_id') AS by_order
         FROM information_schema.columns c
        WHERE table_schema = current_schema() AND column_name IN ('store_id', 'order_id')
          AND EXISTS (SELECT 1 FROM information_schema.tables t
                       WHERE t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE')
        GROUP BY table_name ORDER BY table_name`,
    )) as Array<{ name: string; by_store: boolean; by_order: boolean }>;
    const mine = rows.filter((row) => !KEPT.has(row.name) && /^[a-z_][a-z0-9_]*$/.test(row.name));
    return {
      byStore: mine.filter((row) => row.by_store).map((row) => row.name),
      byOrder: mine.filter((row) => !row.by_store && row.by_order).map((row) => row.name),
    };
  }

  /** `tables` ordered so that a table referencing another by a foreign key is emptied before it. */
  private async childrenFirst(manager: EntityManager, tables: string[]): Promise<string[]> {
    const edges = (await manager.query(
      `SELECT DISTINCT child.relname AS child, parent.relname AS parent
         FROM pg_constraint k
         JOIN pg_class child ON child.oid = k.conrelid
         JOIN pg_class parent ON parent.oid = k.confrelid
         JOIN pg_namespace n ON n.oid = child.relnamespace
        WHERE k.contype = 'f' AND n.nspname = current_schema() AND child.relname <> parent.relname`,
    )) as Array<{ child: string; parent: string }>;
    const ordered: string[] = [];
    const visit = (table: string, path: Set<string>) => {
      if (ordered.includes(table) || path.has(table)) return;
      path.add(table);
      for (const edge of edges) if (edge.parent === table && tables.includes(edge.child)) visit(edge.child, path);
      path.delete(table);
      ordered.push(table);
    };
    for (const table of tables) visit(table, new Set());
    return ordered;
  }
}
