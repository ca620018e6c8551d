import DataLoader from 'dataloader';

/**
 * A DataLoader of the calls made in one turn of the event loop (the requests read together, the
 * jobs of one fetch), not only in one tick; nothing is kept from one batch to the next.
 */
export function turnLoader<K, V>(batch: DataLoader.BatchLoadFn<K, V>): DataLoader<K, V> {
  return new DataLoader(batch, { cache: false, batchScheduleFn: (run) => setImmediate(run) });
}

/**
 * Runs the statement of a batch (a DataLoader's calls made together); when it fails and the batch
 * holds more than one call, each call runs again alone, so one call's bad row fails that call
 * only (its caller gets the error) and the others go on as if they had been alone.
 */
export async function batchOrEachAlone<K, V>(
  keys: readonly K[],
  run: (keys: readonly K[]) => Promise<V[]>,
): Promise<Array<V | Error>> {
  try {
    return await run(keys);
  } catch (error) {
    if (keys.length === 1) throw error;
    return Promise.all(
      keys.map((key) =>
        run([key]).then(
          ([value]) => value,
          (failure: unknown) => (failure instanceof Error ? failure : new Error(String(failure))),
        ),
      ),
    );
  }
}
