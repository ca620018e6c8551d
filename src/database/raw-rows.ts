import { DataSource, EntityManager, EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';
import { preparedStatement } from './prepared-statements';

/**
 * Hand-written SQL for the hot paths, with rows turned into the same entities TypeORM would give.
 * A query builder costs tens of microseconds of CPU per query to build and hydrate; on a request
 * that is all of its time but the round trips, so the requests issue SQL and use the entity
 * metadata only to name the columns and apply the column types and transformers (money as cents).
 */
export class EntityColumns<T extends ObjectLiteral> {
  private readonly metadata: EntityMetadata;
  /** INSERT statements by column list: a handful per entity. */
  private readonly inserts = new Map<string, () => string>();

  constructor(
    private readonly dataSource: DataSource,
    target: EntityTarget<T>,
  ) {
    this.metadata = dataSource.getMetadata(target);
  }

  get table(): string {
    return `"${this.metadata.tableName}"`;
  }

  /** `"a"."col" AS "a_col", …`: every column of the entity, prefixed so joined rows do not clash. */
  select(alias: string, prefix = `${alias}_`): string {
    return this.metadata.columns.map((c) => `"${alias}"."${c.databaseName}" AS "${prefix}${c.databaseName}"`).join(', ');
  }

  /** `"col", …` for RETURNING. */
  returning(): string {
    return this.metadata.columns.map((c) => `"${c.databaseName}"`).join(', ');
  }

  /** The entity in a row selected with `select(alias, prefix)` (or RETURNING, with prefix ''). */
  hydrate(row: Record<string, unknown>, prefix = ''): T {
    const entity = this.metadata.create() as T;
    for (const column of this.metadata.columns) {
      const value = row[`${prefix}${column.databaseName}`];
      if (value === undefined) continue;
      column.setEntityValue(entity, this.dataSource.driver.prepareHydratedValue(value, column));
    }
    return entity;
  }

  /** As `hydrate`, or null when a LEFT JOIN found no row (its primary key is null). */
  hydrateOptional(row: Record<string, unknown>, prefix: string): T | null {
    const primary = this.metadata.primaryColumns[0];
    return row[`${prefix}${primary.databaseName}`] === null ? null : this.hydrate(row, prefix);
  }

  /**
   * `INSERT … RETURNING *` of the given properties (the others take their column defaults), the
   * inserted row hydrated: what `manager.save` of a new entity gives, in one statement.
   */
  async insert(manager: EntityManager, values: Partial<T>): Promise<T> {
    const names: string[] = [];
    const params: unknown[] = [];
    for (const column of this.metadata.columns) {
      const value = column.getEntityValue(values);
      if (value === undefined) continue;
      names.push(`"${column.databaseName}"`);
      params.push(this.dataSource.driver.preparePersistentValue(value, column));
    }
    const key = names.join(', ');
    let statement = this.inserts.get(key);
    if (!statement) {
      const text = `INSERT INTO ${this.table} (${key}) VALUES (${params.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING ${this.returning()}`;
      statement = preparedStatement(this.dataSource, text);
      this.inserts.set(key, statement);
    }
    const rows: Array<Record<string, unknown>> = await manager.query(statement(), params);
    return this.hydrate(rows[0]);
  }
}
