import { DataSource, EntityManager, EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import { PreparedStatement } from './prepared-statements';
import { parseTimestamptz } from './timestamps';

/**
 * A small object mapper for hand-written SQL on the hot paths: column lists, prepared INSERT and
 * UPDATE statements and rows turned into the same entities TypeORM would give, all from TypeORM's
 * entity metadata. A query builder costs tens of microseconds of CPU per query to build and
 * hydrate; on a request that is all of its time but the round trips, so the repositories issue SQL
 * and use the entity metadata only to name the columns and apply the column types and transformers
 * (money as cents).
 */
/** Values as loaded, to tell which columns a caller changed (what `manager.save` compares). */
const loaded = new WeakMap<object, Map<string, unknown>>();

/** A comparable form of a column value: dates by instant, objects (json) by content. */
function comparable(value: unknown): unknown {
  if (value instanceof Date) return value.getTime();
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return value;
}

/** The sources an `insertWith` reads its values from (see there). */
export interface InsertSource<T extends ObjectLiteral> {
  key: string;
  with: string;
  params: unknown[];
  rows: string;
  from: Partial<Record<keyof T & string, string>>;
  /** Expressions selected before the inserted row's columns, over `from`, a source of exactly one row. */
  report: { columns: readonly string[]; from: string };
}

/**
 * The texts of the statements generated here, per column set on first use, by data source. Every
 * other statement is hand-written, built once in its repository's constructor (CONTRIBUTING.md,
 * Conventions); the SQL snapshots (test/sql-snapshots) keep the two apart.
 */
const generated = new WeakMap<DataSource, Set<string>>();

/** The distinct texts of the statements generated so far on this data source, sorted. */
export function generatedStatementTexts(dataSource: DataSource): string[] {
  return [...(generated.get(dataSource) ?? [])].sort();
}

export class EntityColumns<T extends ObjectLiteral> {
  private readonly metadata: EntityMetadata;
  /** INSERT and UPDATE statements by column list: a handful per entity. */
  private readonly statements = new Map<string, PreparedStatement>();

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
    return this.metadata.columns
      .map((c) => `"${alias}"."${c.databaseName}" AS "${prefix}${c.databaseName}"`)
      .join(', ');
  }

  /** Some of the columns, for reads that show only those (see PickedColumns). */
  pick<K extends keyof T & string>(...properties: readonly K[]): PickedColumns<T, K> {
    const columns = properties.map((property) => this.column(property));
    return new PickedColumns<T, K>(this.dataSource, columns, this.metadata.primaryColumns[0]);
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

  /** As `hydrate`, remembering the loaded values so `saveChanges` can write only what changed. */
  hydrateTracked(row: Record<string, unknown>, prefix = ''): T {
    const entity = this.hydrate(row, prefix);
    this.remember(entity);
    return entity;
  }

  private remember(entity: T): void {
    loaded.set(
      entity,
      new Map(this.metadata.columns.map((c) => [c.propertyName, comparable(c.getEntityValue(entity))])),
    );
  }

  private statement(key: string, text: () => string): PreparedStatement {
    let statement = this.statements.get(key);
    if (!statement) {
      statement = new PreparedStatement(this.dataSource, text());
      this.statements.set(key, statement);
      let texts = generated.get(this.dataSource);
      if (!texts) generated.set(this.dataSource, (texts = new Set()));
      texts.add(statement.text);
    }
    return statement;
  }

  /**
   * What `manager.save` does to a loaded entity, in one statement: an UPDATE of the columns whose
   * value changed since `hydrateTracked`, with the update date column set by the database, or no
   * query at all when nothing changed. An entity not loaded here goes through `manager.save`.
   */
  async saveChanges(manager: EntityManager, entity: T): Promise<T> {
    const changed = this.changedColumns(entity);
    if (!changed) return manager.save(this.metadata.target as EntityTarget<T>, entity);
    if (!changed.length) return entity;
    const primary = this.metadata.primaryColumns[0];
    const updateDate = this.metadata.updateDateColumn;
    const names = changed.map((c) => c.column.databaseName);
    const statement = this.statement(`update:${names.join(',')}`, () => {
      const set = names.map((name, i) => `"${name}" = $${i + 2}`);
      if (updateDate) set.push(`"${updateDate.databaseName}" = CURRENT_TIMESTAMP`);
      const returning = updateDate ? ` RETURNING "${updateDate.databaseName}"` : '';
      return `UPDATE ${this.table} SET ${set.join(', ')} WHERE "${primary.databaseName}" = $1${returning}`;
    });
    const rows = await statement.rows([primary.getEntityValue(entity), ...changed.map((c) => c.value)], manager);
    this.saved(entity, rows[0]);
    return entity;
  }

  /**
   * `saveChanges` of several loaded entities in one statement per set of changed columns (the
   * orders of a group commit, each changed the same way): `UPDATE … FROM unnest(…)`. Entities
   * not loaded here, or with a column of a type the statement cannot name, are saved one by one.
   */
  async saveChangesAll(manager: EntityManager, entities: T[]): Promise<T[]> {
    const primary = this.metadata.primaryColumns[0];
    const primaryType = arrayTypeOf(this.dataSource, primary);
    const groups = new Map<string, { changed: ChangedColumn[]; entities: T[]; values: unknown[][] }>();
    const alone: T[] = [];
    for (const entity of entities) {
      const changed = primaryType === null ? undefined : this.changedColumns(entity);
      if (changed?.length === 0) continue;
      if (!changed || changed.some((c) => arrayTypeOf(this.dataSource, c.column) === null)) {
        alone.push(entity);
        continue;
      }
      const key = changed.map((c) => c.column.databaseName).join(',');
      let group = groups.get(key);
      if (!group) groups.set(key, (group = { changed, entities: [], values: changed.map(() => []) }));
      group.entities.push(entity);
      changed.forEach((c, i) => group.values[i].push(c.value));
    }
    for (const entity of alone) await this.saveChanges(manager, entity);
    for (const { changed, entities: same, values } of groups.values()) {
      if (same.length === 1) {
        await this.saveChanges(manager, same[0]);
        continue;
      }
      const names = changed.map((c) => c.column.databaseName);
      const updateDate = this.metadata.updateDateColumn;
      const statement = this.statement(`update-all:${names.join(',')}`, () => {
        const key = `"${primary.databaseName}"`;
        const set = names.map((name) => `"${name}" = v."${name}"`);
        if (updateDate) set.push(`"${updateDate.databaseName}" = CURRENT_TIMESTAMP`);
        const types = [primaryType, ...changed.map((c) => arrayTypeOf(this.dataSource, c.column))];
        const arrays = types.map((type, i) => `$${i + 1}::${type}[]`);
        const columns = [key, ...names.map((name) => `"${name}"`)];
        return (
          `UPDATE ${this.table} t SET ${set.join(', ')} FROM unnest(${arrays.join(', ')}) AS v(${columns.join(', ')}) ` +
          `WHERE t.${key} = v.${key} RETURNING t.${key}${updateDate ? `, t."${updateDate.databaseName}"` : ''}`
        );
      });
      const ids = same.map((entity) => primary.getEntityValue(entity));
      const rows = await statement.rows([ids, ...values], manager);
      const byId = new Map(rows.map((row) => [row[primary.databaseName], row]));
      for (const entity of same) this.saved(entity, byId.get(primary.getEntityValue(entity))!);
    }
    return entities;
  }

  /**
   * The columns of a loaded entity whose value changed since `hydrateTracked`, with the values to
   * write (the key, the update and create dates aside); undefined for an entity not loaded here.
   */
  private changedColumns(entity: T): ChangedColumn[] | undefined {
    const before = loaded.get(entity);
    if (!before) return undefined;
    const primary = this.metadata.primaryColumns[0];
    const updateDate = this.metadata.updateDateColumn;
    const changed: ChangedColumn[] = [];
    for (const column of this.metadata.columns) {
      if (column === primary || column === updateDate || column.isCreateDate) continue;
      const value = column.getEntityValue(entity);
      if (value === undefined || comparable(value) === before.get(column.propertyName)) continue;
      changed.push({ column, value: this.dataSource.driver.preparePersistentValue(value, column) });
    }
    return changed;
  }

  /** After an UPDATE: the update date the database set (from `row`), and the values now stored. */
  private saved(entity: T, row: Record<string, unknown>): void {
    const updateDate = this.metadata.updateDateColumn;
    if (updateDate)
      updateDate.setEntityValue(
        entity,
        this.dataSource.driver.prepareHydratedValue(row[updateDate.databaseName], updateDate),
      );
    this.remember(entity);
  }

  /** As `hydrate`, or null when a LEFT JOIN found no row (its primary key is null). */
  hydrateOptional(row: Record<string, unknown>, prefix: string): T | null {
    const primary = this.metadata.primaryColumns[0];
    return row[`${prefix}${primary.databaseName}`] === null ? null : this.hydrate(row, prefix);
  }

  /**
   * `insert`, with some columns taken from the rows of other statements run in the same statement
   * (`WITH a AS (…), b AS (…), inserted AS (INSERT … SELECT $n, …, a.x, b.id FROM a, b RETURNING …)
   * SELECT <report>, inserted.… FROM <report.from> LEFT JOIN inserted ON true`): reads and writes
   * that must go together, atomic without a transaction's BEGIN and COMMIT round trips. The sources'
   * parameters are $1…$n; `from` maps properties to expressions over the sources named in `rows`.
   * No row is inserted when a source has no row; `report` (one row) then says why, from the
   * sources (`inserted` is null when the first `returning` column, the key, is). Only the
   * `returning` columns come back: such a write is a request's last.
   */
  async insertWith<K extends keyof T & string>(
    manager: EntityManager,
    values: Partial<T>,
    source: InsertSource<T>,
    returning: PickedColumns<T, K>,
  ): Promise<{ inserted: Pick<T, K> | null; report: unknown[] }> {
    const statement = this.insertWithStatement(values, source, returning);
    const [row] = await statement.statement.arrays([...source.params, ...statement.params], manager);
    if (!row) throw new Error(`insertWith ${source.key}: the report's source gave no row`);
    const reported = source.report.columns.length;
    return { inserted: row[reported] === null ? null : returning.read(row, reported), report: row.slice(0, reported) };
  }

  /**
   * The statement `insertWith` runs for these values, and its parameters after the sources' ones.
   * Its cache key is which columns take a parameter or a source expression, as a bit mask in 32-bit
   * words, cheaper than the joined column names (the text is built on a miss).
   */
  insertWithStatement<K extends keyof T & string>(
    values: Partial<T>,
    source: InsertSource<T>,
    returning: PickedColumns<T, K>,
  ): { statement: PreparedStatement; params: unknown[] } {
    const params: unknown[] = [];
    const { columns } = this.metadata;
    const mask: number[] = new Array<number>(Math.ceil(columns.length / 32)).fill(0);
    const taken = (i: number) => (mask[i >> 5] & (1 << (i & 31))) !== 0;
    for (let i = 0; i < columns.length; i++) {
      const column = columns[i];
      if (source.from[column.propertyName as keyof T & string] !== undefined) {
        mask[i >> 5] |= 1 << (i & 31);
        continue;
      }
      const value = column.getEntityValue(values);
      if (value === undefined) continue;
      mask[i >> 5] |= 1 << (i & 31);
      params.push(this.dataSource.driver.preparePersistentValue(value, column));
    }
    const statement = this.statement(`insert-with:${source.key}:${returning.id}:${mask.join('.')}`, () => {
      const names: string[] = [];
      const expressions: string[] = [];
      let param = source.params.length;
      columns.forEach((column, i) => {
        if (!taken(i)) return;
        names.push(`"${column.databaseName}"`);
        expressions.push(source.from[column.propertyName as keyof T & string] ?? `$${++param}`);
      });
      return (
        `WITH ${source.with}, inserted AS (INSERT INTO ${this.table} AS t (${names.join(', ')}) ` +
        `SELECT ${expressions.join(', ')} FROM ${source.rows} RETURNING ${returning.select('t')}) ` +
        `SELECT ${source.report.columns.join(', ')}, ${returning.select('inserted')} FROM ${source.report.from} LEFT JOIN inserted ON true`
      );
    });
    return { statement, params };
  }

  /**
   * `INSERT … RETURNING *` of the given properties (the others take their column defaults), the
   * inserted row hydrated: what `manager.save` of a new entity gives, in one statement.
   */
  async insert(manager: EntityManager, values: Partial<T>): Promise<T> {
    return (await this.insertUnless(manager, values, null))!;
  }

  /**
   * `insert`, or nothing and null when the row would break the unique index named by `conflict`
   * (`("order_id") WHERE "status" = 'processing'`): `INSERT … ON CONFLICT … DO NOTHING`, which
   * unlike a caught unique violation leaves the caller's transaction usable without a savepoint.
   */
  async insertUnless(manager: EntityManager, values: Partial<T>, conflict: string | null): Promise<T | null> {
    const names: string[] = [];
    const params: unknown[] = [];
    for (const column of this.metadata.columns) {
      const value = column.getEntityValue(values);
      if (value === undefined) continue;
      names.push(`"${column.databaseName}"`);
      params.push(this.dataSource.driver.preparePersistentValue(value, column));
    }
    const key = names.join(', ');
    const statement = this.statement(`insert:${conflict ?? ''}:${key}`, () => {
      const skip = conflict === null ? '' : ` ON CONFLICT ${conflict} DO NOTHING`;
      return `INSERT INTO ${this.table} (${key}) VALUES (${params.map((_, i) => `$${i + 1}`).join(', ')})${skip} RETURNING ${this.returning()}`;
    });
    const rows = await statement.rows(params, manager);
    return rows.length ? this.hydrateTracked(rows[0]) : null;
  }

  /**
   * The entity whose columns equal `where` (non-null values, by property), or null: what
   * `findOneBy` gives, from one prepared statement per set of properties instead of a query
   * builder per call.
   */
  async findOneBy(where: Partial<T>, manager?: EntityManager): Promise<T | null> {
    const names: string[] = [];
    const params: unknown[] = [];
    for (const property of Object.keys(where)) {
      const column = this.column(property);
      names.push(column.databaseName);
      params.push(this.dataSource.driver.preparePersistentValue(column.getEntityValue(where), column));
    }
    const statement = this.statement(`find:${names.join(',')}`, () => {
      const condition = names.map((name, i) => `"${name}" = $${i + 1}`).join(' AND ');
      return `SELECT ${this.returning()} FROM ${this.table} WHERE ${condition} LIMIT 1`;
    });
    const rows = await statement.rows(params, manager);
    return rows.length ? this.hydrateTracked(rows[0]) : null;
  }

  /**
   * `UPDATE … SET <changes> WHERE <condition> RETURNING *`, the changed rows hydrated. The
   * condition's parameters are $1…$n (`params`); `key` names it in the statement cache. Changes
   * set to undefined are left out; the update date column is set by the database unless changed.
   */
  async updateWhere(
    manager: EntityManager,
    changes: Partial<T>,
    where: { key: string; condition: string; params: unknown[] },
  ): Promise<T[]> {
    const rows = await this.update(manager, changes, where, true);
    return rows.map((row) => this.hydrateTracked(row));
  }

  /** `updateWhere` when the caller needs nothing back: how many rows changed. */
  async updateCount(
    manager: EntityManager,
    changes: Partial<T>,
    where: { key: string; condition: string; params: unknown[] },
  ): Promise<number> {
    return (await this.update(manager, changes, where, false)).length;
  }

  private update(
    manager: EntityManager,
    changes: Partial<T>,
    where: { key: string; condition: string; params: unknown[] },
    hydrate: boolean,
  ): Promise<Record<string, unknown>[]> {
    const names: string[] = [];
    const params = [...where.params];
    for (const property of Object.keys(changes)) {
      const column = this.column(property);
      const value = column.getEntityValue(changes);
      if (value === undefined) continue;
      names.push(column.databaseName);
      params.push(this.dataSource.driver.preparePersistentValue(value, column));
    }
    const statement = this.statement(`update-where:${where.key}:${hydrate}:${names.join(',')}`, () => {
      const set = names.map((name, i) => `"${name}" = $${i + 1 + where.params.length}`);
      const updateDate = this.metadata.updateDateColumn;
      if (updateDate && !names.includes(updateDate.databaseName))
        set.push(`"${updateDate.databaseName}" = CURRENT_TIMESTAMP`);
      const primary = `"${this.metadata.primaryColumns[0].databaseName}"`;
      return `UPDATE ${this.table} SET ${set.join(', ')} WHERE ${where.condition} RETURNING ${hydrate ? this.returning() : primary}`;
    });
    return statement.rows(params, manager);
  }

  private column(property: string): ColumnMetadata {
    const column = this.metadata.findColumnWithPropertyName(property);
    if (!column) throw new Error(`${this.metadata.name} has no column ${property}`);
    return column;
  }
}

const TIMESTAMP_TYPES = new Set<unknown>([
  'timestamptz',
  'timestamp with time zone',
  'timestamp',
  'timestamp without time zone',
  Date,
]);
/** Types JSON cannot carry exactly as numbers: sent as their text, as pg's own row format does. */
const TEXT_IN_JSON = new Set<unknown>(['numeric', 'decimal', 'bigint', 'int8']);

/**
 * Some columns of an entity, selected in a fixed order and read by position, with the same column
 * types and transformers as `hydrate`: from rows fetched as arrays (`PreparedStatement.arrays`),
 * or from JSON arrays built by the query (`jsonValues`). A read that shows a few columns of
 * several joined tables then transfers, parses and builds only those, into plain objects typed as
 * exactly what was read rather than entities with holes.
 */
export class PickedColumns<T extends ObjectLiteral, K extends keyof T & string> {
  private static count = 0;
  /** Tells statements returning different column lists apart in a statement cache key. */
  readonly id = ++PickedColumns.count;
  /** How many values of a row are this entity's: the offset of whatever is selected after it. */
  readonly length: number;
  private readonly primary: number;
  private readonly timestamps: boolean[];

  constructor(
    private readonly dataSource: DataSource,
    private readonly columns: ColumnMetadata[],
    primary: ColumnMetadata,
  ) {
    this.length = columns.length;
    this.primary = columns.indexOf(primary);
    this.timestamps = columns.map((c) => TIMESTAMP_TYPES.has(c.type));
  }

  /** `"a"."col", …` in the order `read` expects. */
  select(alias: string): string {
    return this.columns.map((c) => `"${alias}"."${c.databaseName}"`).join(', ');
  }

  /**
   * The columns as arguments of `json_build_array(…)`, in the order `read` expects. Numerics as
   * text, which JSON would carry as floating-point numbers, and timestamps as text in the session's
   * format, the one pg parses, rather than JSON's ISO form.
   */
  jsonValues(alias: string): string {
    return this.columns
      .map((c, i) => `"${alias}"."${c.databaseName}"${TEXT_IN_JSON.has(c.type) || this.timestamps[i] ? '::text' : ''}`)
      .join(', ');
  }

  /** `json_build_array(…)` of the columns (see `jsonValues`), e.g. for rows aggregated with `json_agg`. */
  jsonArray(alias: string): string {
    return `json_build_array(${this.jsonValues(alias)})`;
  }

  /** The columns' properties from `row[at]`, `row[at + 1]`, …; `at` is the sum of the `length`s selected before. */
  read(row: readonly unknown[], at = 0): Pick<T, K> {
    const out: Record<string, unknown> = {};
    const { driver } = this.dataSource;
    for (let i = 0; i < this.columns.length; i++) {
      const column = this.columns[i];
      let value = row[at + i];
      // A timestamp from a JSON array is its text (see jsonValues); from a row, pg parsed it.
      if (this.timestamps[i] && typeof value === 'string') value = parseTimestamptz(value);
      out[column.propertyName] = driver.prepareHydratedValue(value, column);
    }
    return out as Pick<T, K>;
  }

  /** As `read`, or null when a LEFT JOIN found no row: its primary key, which must be picked, is null. */
  readOptional(row: readonly unknown[], at: number): Pick<T, K> | null {
    if (this.primary < 0) throw new Error('readOptional needs the primary key among the picked columns');
    return row[at + this.primary] === null ? null : this.read(row, at);
  }
}

/**
 * Where each part of a row that selects several `PickedColumns` one after another begins, and
 * (last) where what follows them begins.
 */
export function offsets(...parts: ReadonlyArray<{ length: number }>): number[] {
  const out = [0];
  for (const part of parts) out.push(out[out.length - 1] + part.length);
  return out;
}

/** A changed column of an entity and the value to write (`EntityColumns.changedColumns`). */
interface ChangedColumn {
  column: ColumnMetadata;
  value: unknown;
}

/**
 * The element type of a column's array parameter in `saveChangesAll` (the column's own type as
 * TypeORM names it), or null for a type it does not take (an enum, an array). Text types go as
 * text, so a `char(3)` keeps its three characters (a bare `char[]` would be `char(1)`); the
 * column's assignment casts them back.
 */
function arrayTypeOf(dataSource: DataSource, column: ColumnMetadata): string | null {
  if (column.isArray) return null;
  const type = dataSource.driver.normalizeType(column);
  if (/^(character varying|varchar|character|char|text|bpchar)$/.test(type)) return 'text';
  if (
    /^(integer|int|int4|bigint|int8|smallint|numeric|decimal|boolean|timestamp with time zone|timestamptz|jsonb|json|uuid|date)$/.test(
      type,
    )
  )
    return type;
  return null;
}
