import { EventEmitter } from 'node:events';
import { DatabaseError, Pool } from 'pg';
import { statementName } from '../../database/prepared-statements';
import { isDatabaseUnavailable } from '../../database/unavailable';

/**
 * pg-boss's connection pool (its `db` option), with its parameterised statements — the job fetch,
 * the completions, a job's insert — prepared by name, as the service's own hot statements are
 * (src/database/prepared-statements.ts): PostgreSQL plans each of them once per connection instead
 * of on every call. Statements without parameters (pg-boss's migrations and maintenance, several
 * commands in one text) run as they are. Only on a PostgreSQL server: the embedded PGlite shares
 * one session between connections, where a name prepared twice fails.
 */
export class JobDatabase extends EventEmitter {
  private pool?: Pool;

  constructor(
    private readonly options: { connectionString: string; application_name: string; max: number },
    private readonly prepared: boolean,
  ) {
    super();
  }

  open(): void {
    this.pool = new Pool(this.options);
    this.pool.on('error', (error) => this.emit('error', error));
  }

  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    await pool?.end();
  }

  /**
   * pg-boss's `Db` contract. A failed statement is reported (`statement-error`): pg-boss itself
   * swallows a failed job fetch, which would leave a queue idle with nobody told.
   */
  async executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> {
    if (!this.pool) throw new Error('The job database is closed.');
    try {
      if (this.prepared && values?.length) return await this.preparedQuery(this.pool, text, values);
      return await this.pool.query(text, values);
    } catch (error) {
      this.emit('statement-error', error);
      throw error;
    }
  }

  /**
   * A statement by name on a connection of the pool. A connection whose prepared statements are
   * out of step with what the driver believes it prepared (the server has none by that name, or
   * has it already) would fail that statement on every use: it is closed, and the statement runs
   * once more unnamed on another. A connection the server or the network closed (a failure that is
   * not a statement's own error) is closed too, never handed to the next caller; while checked out,
   * its socket's error is heard here, as `pool.query` does, instead of crashing the process.
   */
  private async preparedQuery(pool: Pool, text: string, values: unknown[]): Promise<{ rows: unknown[] }> {
    const client = await pool.connect();
    const heard = (): void => undefined;
    client.on('error', heard);
    let result;
    try {
      result = await client.query({ name: nameOf(text), text, values });
    } catch (error) {
      // A statement's own error carries its SQLSTATE; a lost connection is what isDatabaseUnavailable
      // names (57P01 terminated, class 08, a reset socket), or an error without a code.
      const code = (error as DatabaseError).code;
      const outOfStep = PREPARED_STATE_ERRORS.has(code ?? '');
      const statementOnly = typeof code === 'string' && !outOfStep && !isDatabaseUnavailable(error);
      client.removeListener('error', heard);
      client.release(statementOnly ? undefined : (error as Error));
      if (outOfStep) return pool.query(text, values);
      throw error;
    }
    client.removeListener('error', heard);
    client.release();
    return result;
  }
}

/** invalid_sql_statement_name (none by that name) and duplicate_prepared_statement. */
const PREPARED_STATE_ERRORS = new Set(['26000', '42P05']);

const names = new Map<string, string>();

/** The statement's name, computed once per text (pg-boss builds a handful of texts). */
export function nameOf(text: string): string {
  let name = names.get(text);
  if (!name) names.set(text, (name = statementName(text)));
  return name;
}
