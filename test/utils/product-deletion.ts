import { DataSource } from 'typeorm';

/**
 * A product's deletion caught half-way, as the catalog's deletion runs it: the product's row held
 * `FOR UPDATE` in an open transaction. `commit()` deletes the row and commits; `release()` ends the
 * transaction if it is still open. For tests of a row naming a product while that product goes.
 */
export async function deletionUnderWay(dataSource: DataSource, productId: number) {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  await runner.startTransaction();
  await runner.query('SELECT id FROM products WHERE id = $1 FOR UPDATE', [productId]);
  return {
    async commit(): Promise<void> {
      await runner.query('DELETE FROM products WHERE id = $1', [productId]);
      await runner.commitTransaction();
    },
    async release(): Promise<void> {
      if (runner.isTransactionActive) await runner.rollbackTransaction();
      await runner.release();
    },
  };
}

/**
 * Resolves once a statement of the service waits for a row lock held by another transaction
 * (catalog's product hold, `FOR KEY SHARE`), checked in `pg_stat_activity`.
 */
export async function waitingForProductHold(dataSource: DataSource): Promise<void> {
  for (;;) {
    const [{ waiting }] = (await dataSource.query(
      `SELECT count(*)::int AS waiting FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE '%FOR KEY SHARE%'`,
    )) as { waiting: number }[];
    if (waiting > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Which comes first: the request's answer, or the request waiting for the product's hold. */
export function answeredOrWaiting(answer: Promise<unknown>, dataSource: DataSource): Promise<'answered' | 'waiting'> {
  return Promise.race([
    answer.then(() => 'answered' as const),
    waitingForProductHold(dataSource).then(() => 'waiting' as const),
  ]);
}

/**
 * Sends a request while the product's deletion is under way: the request must wait for the
 * deletion's hold (it answers only after the deletion commits), and its answer is returned.
 */
export async function sentWhileDeleting<R>(
  dataSource: DataSource,
  productId: number,
  send: () => Promise<R>,
): Promise<R> {
  const deletion = await deletionUnderWay(dataSource, productId);
  try {
    const answer = send();
    expect(await answeredOrWaiting(answer, dataSource)).toBe('waiting');
    await deletion.commit();
    return await answer;
  } finally {
    await deletion.release();
  }
}
