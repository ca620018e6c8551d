import { createHash } from 'node:crypto';
import type { Pool, QueryArrayConfig, QueryConfig } from 'pg';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

/**
 * Named (server-side prepared) statements for the queries every request runs. PostgreSQL then
 * parses and plans each of them once per pooled connection instead of on every call; planning the
 * joined read of an order cost more than executing it (0.5 ms against 0.1 ms).
 *
 * They are on only for a PostgreSQL server: the embedded PGlite has one session shared by every
 * pooled connection, where a second connection preparing the same name would fail.
 */
const enabled = new WeakSet<DataSource>();
/** The text of every statement built on a data source: what the SQL snapshots compare (test/sql-snapshots). */
const texts = new WeakMap<DataSource, Set<string>>();

/** The distinct texts of the statements built so far on this data source, sorted. */
export function statementTexts(dataSource: DataSource): string[] {
  return [...(texts.get(dataSource) ?? [])].sort();
}

/** Whether the server is the embedded PGlite (its `version()` names it). */
export async function isPGlite(dataSource: DataSource): Promise<boolean> {
  const [row] = (await dataSource.query('SELECT version() AS version')) as { version: string }[];
  return row.version.includes('PGlite');
}

export function enablePreparedStatements(dataSource: DataSource): void {
  enabled.add(dataSource);
}

/** Whether statements on this data source are prepared by name (a PostgreSQL server, not PGlite). */
export function preparedStatementsOn(dataSource: DataSource): boolean {
  return enabled.has(dataSource);
}

/** The server-side name of a statement: one per distinct text, so equal texts share one plan. */
export function statementName(text: string): string {
  return `s_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
}

/**
 * One of the per-request queries. Inside a transaction it runs on the transaction's connection
 * through TypeORM; otherwise straight on TypeORM's pg pool: a query runner per query (its
 * connect and release promises, the broadcaster, the result wrapper) was 4 % of the CPU of a read.
 * A failing query is a QueryFailedError either way, as code that tells constraint violations
 * apart expects.
 */
export class PreparedStatement {
  private readonly name: string | undefined;

  /** Decided when the statement is built, as repositories are: after the data source's factory enabled them. */
  constructor(
    private readonly dataSource: DataSource,
    readonly text: string,
  ) {
    // One name per distinct text: statements built twice with one text share their prepared plan.
    if (enabled.has(dataSource)) this.name = statementName(text);
    let known = texts.get(dataSource);
    if (!known) texts.set(dataSource, (known = new Set()));
    known.add(text);
  }

  /** The server-side name, or undefined where prepared statements are off (PGlite). */
  get preparedName(): string | undefined {
    return this.name;
  }

  /** The rows it returns (of an UPDATE or DELETE too: those with RETURNING). */
  rows<R = Record<string, unknown>>(params: unknown[], manager?: EntityManager): Promise<R[]> {
    return this.run<R>(this.config(), params, manager);
  }

  /**
   * The rows as arrays of column values, in select-list order: pg then builds no object per row
   * (with one property per column, for 40 columns and more) and the reader takes values by position.
   */
  arrays(params: unknown[], manager?: EntityManager): Promise<unknown[][]> {
    const config: QueryArrayConfig = this.name
      ? { name: this.name, text: this.text, rowMode: 'array' }
      : { text: this.text, rowMode: 'array' };
    return this.run<unknown[]>(config, params, manager);
  }

  private async run<R>(
    config: QueryConfig | QueryArrayConfig,
    params: unknown[],
    manager: EntityManager | undefined,
  ): Promise<R[]> {
    const runner = manager?.queryRunner;
    // TypeORM hands a config object to pg as it is.
    if (runner) return (await runner.query(config as unknown as string, params, true)).records as R[];
    const pool = (this.dataSource.driver as PostgresDriver).master as Pool;
    try {
      return (await pool.query(config as QueryConfig, params)).rows as R[];
    } catch (error) {
      throw new QueryFailedError(this.text, params, error as Error);
    }
  }

  /** A fresh object per call: pg writes the values onto it. */
  private config(): QueryConfig {
    return this.name ? { name: this.name, text: this.text } : { text: this.text };
  }
}
