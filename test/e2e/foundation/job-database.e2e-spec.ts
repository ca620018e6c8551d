import { Client } from 'pg';
import { JobDatabase } from '../../../src/common/jobs/job-database';
import { createTestDatabase, TestDatabase } from '../../utils/test-database';

/**
 * The job queue's pool (common/jobs/job-database.ts) on PostgreSQL: statements prepared by name,
 * and a connection whose prepared statements fell out of step closed instead of failing the same
 * statement forever (pg-boss swallows a failed fetch: the queue would sit idle).
 */
describe('job database', () => {
  let database: TestDatabase;
  let db: JobDatabase;
  const failures: Array<{ code?: string }> = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    db = new JobDatabase({ connectionString: database.url, application_name: 'job-database-test', max: 1 }, true);
    db.on('statement-error', (error: { code?: string }) => failures.push(error));
    db.open();
  });
  afterAll(async () => {
    await db.close();
    await database.drop();
  });

  it('prepares a parameterised statement once per connection', async () => {
    expect((await db.executeSql('SELECT $1::int AS n', [1])).rows).toEqual([{ n: 1 }]);
    const { rows } = await db.executeSql(`SELECT count(*)::int AS n FROM pg_prepared_statements`);
    expect(rows).toEqual([{ n: 1 }]);
  });

  it('recovers when the server lost the statement the driver believes prepared', async () => {
    await db.executeSql('SELECT $1::int AS n', [1]);
    // Same connection (max 1): the server forgets it, the driver does not.
    await db.executeSql('DEALLOCATE ALL');
    expect((await db.executeSql('SELECT $1::int AS n', [2])).rows).toEqual([{ n: 2 }]);
    // The connection was replaced: the statement is prepared afresh and runs by name again.
    expect((await db.executeSql('SELECT $1::int AS n', [3])).rows).toEqual([{ n: 3 }]);
    expect(failures).toEqual([]);
  });

  it('reports and throws any other failure', async () => {
    await expect(db.executeSql('SELECT 1 / $1::int AS n', [0])).rejects.toThrow('division by zero');
    expect(failures.map((f) => f.code)).toEqual(['22012']);
  });

  it('survives its backend terminated mid-statement while another caller waits for the connection', async () => {
    failures.length = 0;
    // One connection (max 1): the sleeper holds it, the second call waits in the pool's queue and
    // is handed the same connection when the first fails, before its socket has closed.
    const sleeper = db.executeSql('SELECT pg_sleep($1::int)', [30]);
    const waiter = db.executeSql('SELECT $1::int AS n', [7]);
    const admin = new Client({ connectionString: database.url });
    await admin.connect();
    try {
      let terminated = 0;
      while (!terminated) {
        const { rowCount } = await admin.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE application_name = 'job-database-test' AND query LIKE '%pg_sleep%'`,
        );
        terminated = rowCount ?? 0;
      }
    } finally {
      await admin.end();
    }
    await expect(sleeper).rejects.toMatchObject({ code: '57P01' });
    // The waiter runs on a fresh connection, not on the one the server closed.
    expect((await waiter).rows).toEqual([{ n: 7 }]);
    expect((await db.executeSql('SELECT $1::int AS n', [8])).rows).toEqual([{ n: 8 }]);
  });
});
