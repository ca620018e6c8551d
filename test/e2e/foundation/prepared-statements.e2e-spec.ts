import { QueryFailedError } from 'typeorm';
import { PreparedStatement } from '../../../src/database/prepared-statements';
import { createTestApp, TestApp } from '../../utils/test-app';

/** The per-request statements run on the pool outside transactions and on the transaction inside one. */
describe('PreparedStatement', () => {
  let t: TestApp;
  let insert: PreparedStatement;
  let count: PreparedStatement;

  beforeAll(async () => {
    t = await createTestApp();
    await t.dataSource.query('CREATE TABLE statement_probe (id int PRIMARY KEY, label text NOT NULL)');
    insert = new PreparedStatement(
      t.dataSource,
      'INSERT INTO statement_probe (id, label) VALUES ($1, $2) RETURNING id, label',
    );
    count = new PreparedStatement(t.dataSource, 'SELECT count(*)::int AS n FROM statement_probe WHERE id = $1');
  });
  afterAll(() => t.close());

  it('returns the rows of a statement run outside a transaction', async () => {
    expect(await insert.rows([1, 'one'])).toEqual([{ id: 1, label: 'one' }]);
    expect(await count.rows([1])).toEqual([{ n: 1 }]);
  });

  it('turns a failing query into QueryFailedError with the driver error, outside a transaction', async () => {
    const error: unknown = await insert.rows([1, 'again']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QueryFailedError);
    expect((error as QueryFailedError).driverError).toMatchObject({
      code: '23505',
      constraint: 'statement_probe_pkey',
    });
  });

  it('runs on the transaction of the manager it is given: its writes are seen there and rolled back with it', async () => {
    await expect(
      t.dataSource.transaction(async (manager) => {
        expect(await insert.rows([2, 'two'], manager)).toEqual([{ id: 2, label: 'two' }]);
        expect(await count.rows([2], manager)).toEqual([{ n: 1 }]);
        const error: unknown = await insert.rows([2, 'again'], manager).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(QueryFailedError);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await count.rows([2])).toEqual([{ n: 0 }]);
  });
});
