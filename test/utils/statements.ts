import { PreparedStatement } from '../../src/database/prepared-statements';

/**
 * The texts of the hand-written statements (`PreparedStatement`) run while `work` runs, one entry
 * per round trip, in or out of a transaction: what batching is measured by.
 */
export async function statementsOf(work: () => Promise<unknown>): Promise<string[]> {
  const texts: string[] = [];
  const rows = PreparedStatement.prototype.rows;
  const arrays = PreparedStatement.prototype.arrays;
  const spies = [
    jest.spyOn(PreparedStatement.prototype, 'rows').mockImplementation(function (
      this: PreparedStatement,
      ...args: Parameters<PreparedStatement['rows']>
    ) {
      texts.push(this.text);
      return rows.apply(this, args);
    }),
    jest.spyOn(PreparedStatement.prototype, 'arrays').mockImplementation(function (
      this: PreparedStatement,
      ...args: Parameters<PreparedStatement['arrays']>
    ) {
      texts.push(this.text);
      return arrays.apply(this, args);
    }),
  ];
  try {
    await work();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  return texts;
}
