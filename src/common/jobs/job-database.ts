import { EventEmitter } from 'node:events';
import { Pool } from 'pg';
import { statementName } from '../../database/prepared-statements';

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

  /** pg-boss's `Db` contract. */
  async executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> {
    if (!this.pool) throw new Error('The job database is closed.');
    if (this.prepared && values?.length) return this.pool.query({ name: nameOf(text), text, values });
    return this.pool.query(text, values);
  }
}

const names = new Map<string, string>();

/** The statement's name, computed once per text (pg-boss builds a handful of texts). */
export function nameOf(text: string): string {
  let name = names.get(text);
  if (!name) names.set(text, (name = statementName(text)));
  return name;
}
