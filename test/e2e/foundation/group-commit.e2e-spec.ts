import { DataSource } from 'typeorm';
import { GroupCommit } from '../../../src/database/group-commit';
import { createTestApp, TestApp } from '../../utils/test-app';

/** Group commit (src/database/group-commit.ts) on the real database: shared transactions, failures alone. */
describe('group commit', () => {
  let t: TestApp;
  let db: DataSource;

  beforeAll(async () => {
    t = await createTestApp();
    db = t.dataSource;
    await db.query('CREATE TABLE group_commit_rows (key int NOT NULL, tx bigint NOT NULL)');
  });
  afterAll(() => t.close());

  /** Each item inserts a row and answers its transaction's id; `fail` makes an item throw after its insert. */
  const group = (fail = new Set<number>(), maxBatch = 64) =>
    new GroupCommit<{ key: number; n: number }, string>(
      db,
      async (manager, items) => {
        const out: string[] = [];
        for (const item of items) {
          const [row] = await manager.query(
            'INSERT INTO group_commit_rows (key, tx) VALUES ($1, txid_current()) RETURNING tx::text',
            [item.key],
          );
          if (fail.has(item.n)) throw new Error(`item ${item.n} failed`);
          out.push(row.tx);
        }
        return out;
      },
      { maxBatch, maxInFlight: 1, keyOf: (item) => item.key },
    );

  beforeEach(() => db.query('DELETE FROM group_commit_rows'));

  it('makes the changes that come together in one transaction, and a lone one at once', async () => {
    const g = group();
    const together = await Promise.all([1, 2, 3, 4, 5].map((n) => g.run({ key: n, n })));
    expect(new Set(together).size).toBe(1);
    const alone = await g.run({ key: 9, n: 9 });
    expect(alone).not.toBe(together[0]);
    expect((await db.query('SELECT count(*)::int AS n FROM group_commit_rows'))[0].n).toBe(6);
  });

  it('keeps the transaction to maxBatch items; the rest go in the next', async () => {
    const g = group(new Set(), 2);
    const txs = await Promise.all([1, 2, 3, 4, 5].map((n) => g.run({ key: n, n })));
    expect(new Set(txs).size).toBe(3);
  });

  it('never puts two items of one key in one transaction', async () => {
    const g = group();
    const [a, b, c] = await Promise.all([g.run({ key: 1, n: 1 }), g.run({ key: 1, n: 2 }), g.run({ key: 2, n: 3 })]);
    expect(a).toBe(c);
    expect(b).not.toBe(a);
  });

  it('fails only the item that fails, and keeps nothing of the shared attempt', async () => {
    const g = group(new Set([3]));
    const results = await Promise.allSettled([1, 2, 3, 4].map((n) => g.run({ key: n, n })));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect((results[2] as PromiseRejectedResult).reason.message).toBe('item 3 failed');
    const rows = await db.query('SELECT key, tx::text AS tx FROM group_commit_rows ORDER BY key');
    // One row each for the items that succeeded (each made again alone): none from the rolled-back
    // shared transaction, none from the failed item.
    expect(rows.map((r: { key: number }) => r.key)).toEqual([1, 2, 4]);
    const answered = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    expect(rows.map((r: { tx: string }) => r.tx).sort()).toEqual(answered.sort());
  });
});
