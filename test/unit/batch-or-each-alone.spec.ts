import { batchOrEachAlone } from '../../src/database/batch';

describe('batchOrEachAlone', () => {
  /** Fails any batch holding a negative key; answers doubled keys. */
  const calls: number[][] = [];
  const run = async (keys: readonly number[]) => {
    calls.push([...keys]);
    if (keys.some((k) => k < 0)) throw new Error(`bad ${keys.join(',')}`);
    return keys.map((k) => k * 2);
  };
  beforeEach(() => (calls.length = 0));

  it('runs the batch once when it succeeds', async () => {
    expect(await batchOrEachAlone([1, 2, 3], run)).toEqual([2, 4, 6]);
    expect(calls).toEqual([[1, 2, 3]]);
  });

  it('runs each key alone when the batch fails: only the bad one fails', async () => {
    const results = await batchOrEachAlone([1, -2, 3], run);
    expect(results[0]).toBe(2);
    expect(results[1]).toEqual(new Error('bad -2'));
    expect(results[2]).toBe(6);
    expect(calls).toEqual([[1, -2, 3], [1], [-2], [3]]);
  });

  it('throws the error of a batch of one', async () => {
    await expect(batchOrEachAlone([-1], run)).rejects.toThrow('bad -1');
  });
});
