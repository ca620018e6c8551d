import { Logger } from '@nestjs/common';
import PgBoss from 'pg-boss';
import { QueueWorker } from '../../../src/common/jobs/queue-worker';
import { createTestDatabase, TestDatabase } from '../../utils/test-database';

/**
 * The worker of a job queue (src/common/jobs/queue-worker.ts) against pg-boss on a real
 * PostgreSQL: at most `concurrency` jobs at once, a slow job holding only its own slot, a failed
 * job failed alone (and retried by pg-boss), and the fetches and completions of a busy queue shared.
 */
describe('QueueWorker', () => {
  let db: TestDatabase;
  let boss: PgBoss;
  const logger = new Logger('QueueWorkerTest');
  const workers: QueueWorker[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    boss = new PgBoss({ connectionString: db.url, max: 3, supervise: false, schedule: false });
    boss.on('error', () => undefined);
    await boss.start();
  });
  afterAll(async () => {
    for (const worker of workers) await worker.stop(1_000);
    await boss.stop({ graceful: false, wait: true });
    await db.drop();
  });

  const queue = async (name: string, retryLimit = 0) => {
    await boss.createQueue(name, { name, retryLimit, retryDelay: 1, retryBackoff: false, expireInSeconds: 60 });
  };
  const states = async (name: string): Promise<Record<string, number>> => {
    const rows = await boss
      .getDb()
      .executeSql(`SELECT state, count(*)::int AS n FROM pgboss.job WHERE name = $1 GROUP BY state`, [name]);
    return Object.fromEntries((rows.rows as Array<{ state: string; n: number }>).map((r) => [r.state, r.n]));
  };
  const until = async (check: () => Promise<boolean> | boolean, ms = 15_000) => {
    const end = Date.now() + ms;
    while (!(await check())) {
      if (Date.now() > end) throw new Error('condition not met in time');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const worker = (name: string, run: (job: PgBoss.Job<object>) => Promise<void>, concurrency: number) => {
    const w = new QueueWorker(boss, name, run, { concurrency, pollSeconds: 1, expireInSeconds: 60 }, logger);
    workers.push(w);
    return w;
  };

  it('runs at most `concurrency` jobs at once; a job that hangs holds only its slot', async () => {
    await queue('slots');
    let running = 0;
    let most = 0;
    const done: number[] = [];
    let releaseSlow!: () => void;
    const slow = new Promise<void>((resolve) => (releaseSlow = resolve));
    const w = worker(
      'slots',
      async (job) => {
        const { n } = job.data as { n: number };
        running++;
        most = Math.max(most, running);
        if (n === 0) await slow;
        else await new Promise((resolve) => setTimeout(resolve, 5));
        running--;
        done.push(n);
      },
      3,
    );
    await boss.send('slots', { n: 0 });
    w.start();
    await until(() => running === 1);
    for (let n = 1; n <= 20; n++) await boss.send('slots', { n });
    w.wake();
    // The other 20 go through the two free slots while job 0 hangs.
    await until(() => done.length === 20);
    expect(done).not.toContain(0);
    expect(most).toBeLessThanOrEqual(3);
    releaseSlow();
    await until(async () => (await states('slots')).completed === 21);
  });

  it('fails a throwing job alone (pg-boss records it) and completes the rest', async () => {
    await queue('failing');
    const w = worker(
      'failing',
      async (job) => {
        if ((job.data as { bad?: boolean }).bad) throw new Error('refused');
      },
      4,
    );
    await boss.send('failing', { bad: true });
    for (let i = 0; i < 5; i++) await boss.send('failing', {});
    w.start();
    await until(async () => {
      const s = await states('failing');
      return s.completed === 5 && s.failed === 1;
    });
    const rows = await boss
      .getDb()
      .executeSql(`SELECT output FROM pgboss.job WHERE name = 'failing' AND state = 'failed'`, []);
    expect((rows.rows[0] as { output: { message: string } }).output.message).toBe('refused');
  });

  it('fetches the jobs waiting for free slots together and completes jobs finished together in one statement', async () => {
    await queue('batched');
    for (let i = 0; i < 16; i++) await boss.send('batched', { i });
    const fetch = jest.spyOn(boss, 'fetch');
    const complete = jest.spyOn(boss, 'complete');
    const w = worker('batched', () => Promise.resolve(), 8);
    w.start();
    await until(async () => (await states('batched')).completed === 16);
    const fetched = fetch.mock.calls.filter(([name]) => name === 'batched');
    const completed = complete.mock.calls.filter(([name]) => name === 'batched');
    expect(fetched.length).toBeLessThan(16);
    expect(completed.length).toBeLessThan(16);
    expect(completed.flatMap(([, ids]) => ids as string[])).toHaveLength(16);
    fetch.mockRestore();
    complete.mockRestore();
  });

  it('stop() waits for the jobs in hand and records them', async () => {
    await queue('stopping');
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let started = false;
    const w = worker(
      'stopping',
      async () => {
        started = true;
        await gate;
      },
      2,
    );
    await boss.send('stopping', {});
    w.start();
    await until(() => started);
    const stopped = w.stop(10_000);
    setTimeout(release, 100);
    await stopped;
    expect((await states('stopping')).completed).toBe(1);
  });
});
