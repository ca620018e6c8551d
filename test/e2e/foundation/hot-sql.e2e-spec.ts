import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { generatedStatementTexts } from '../../../src/database/entity-sql';
import { statementTexts } from '../../../src/database/prepared-statements';
import { customerBody, sellerApi } from '../../factories/api';
import { createSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';

/**
 * The SQL the app runs by hand, kept in test/sql-snapshots so a change to it — a column added to an
 * entity, a renamed one, a rule of order creation — shows in review as a diff of those files:
 *
 * - hand-written.sql: every hand-written statement (`PreparedStatement`). Repositories build them
 *   in their constructors, so all of them exist once the app has started, before any request,
 *   whether or not a test runs them; after a scenario of requests there is still none more.
 *   test/unit/hand-written-sql.spec.ts keeps hand-written SQL in `PreparedStatement`s.
 * - hot-statements.sql: the statements `EntityColumns` generates, one per column set a call needs,
 *   built on first use: those of every kind of order creation and read.
 *
 * After an intended change: `UPDATE_SQL_SNAPSHOTS=1 npx jest test/e2e/foundation/hot-sql.e2e-spec.ts`.
 */
const SNAPSHOTS = join(__dirname, '..', '..', 'sql-snapshots');

/** One clause per line, for a readable diff; the text itself is compared as PostgreSQL gets it. */
function layout(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(
      / (?=(FROM|LEFT JOIN|JOIN|WHERE|ORDER BY|LIMIT|RETURNING|ON CONFLICT|SELECT|INSERT INTO|UPDATE|\w+ AS \()\b)/g,
      '\n  ',
    )
    .replace(/(LEFT|DO)\n {2}(JOIN|UPDATE)/g, '$1 $2');
}

/** The statements, laid out, against the snapshot file (written instead with UPDATE_SQL_SNAPSHOTS=1). */
function expectSnapshot(file: string, texts: string[]): void {
  const path = join(SNAPSHOTS, file);
  const actual = `${texts.map(layout).join(';\n\n')};\n`;
  if (process.env.UPDATE_SQL_SNAPSHOTS === '1') writeFileSync(path, actual);
  if (!existsSync(path)) throw new Error(`${path} is missing: run with UPDATE_SQL_SNAPSHOTS=1 and commit it`);
  expect(actual).toBe(readFileSync(path, 'utf8'));
}

/** The statements built so far that `EntityColumns` did not generate. */
function handWritten(dataSource: DataSource): string[] {
  const generated = new Set(generatedStatementTexts(dataSource));
  return statementTexts(dataSource).filter((text) => !generated.has(text));
}

describe('SQL snapshots', () => {
  let t: TestApp;
  /** The hand-written statements once the app has started, before any request. */
  let atStart: string[];
  beforeAll(async () => {
    t = await createTestApp();
    atStart = handWritten(t.dataSource);
  });
  afterAll(() => t.close());

  it('has every hand-written statement in test/sql-snapshots/hand-written.sql, built at start', () => {
    expectSnapshot('hand-written.sql', atStart);
  });

  it('has the generated statements of every kind of order creation and read in test/sql-snapshots/hot-statements.sql', async () => {
    const seller = await createSeller(t);
    const api = sellerApi(t.http, seller.auth);
    const product = await api.product({ name: 'Ebook', price: 100 });
    const recurring = await api.product({ name: 'Club', price: 10, type: 'recurring' });
    const plan = await t.http
      .post('/v1/plans')
      .set(seller.auth)
      .send({ product_pid: recurring.pid, name: 'Monthly', price: 10, interval: 'month' })
      .expect(201);
    const affiliate = await api.affiliate({ name: 'Aff', email: 'aff@example.com', commission_percent: 10 });
    await api.discount({ code: 'TEN', type: 'percent', value: 10 });
    const order = (body: Record<string, unknown>) =>
      t.http
        .post('/v1/orders')
        .set(seller.auth)
        .send({ amount: 100, product_pid: product.pid, customer: customerBody('ana@example.com'), ...body })
        .expect(201);
    const created = await order({});
    await order({ coupon_code: 'TEN' });
    await order({ affiliate_id: affiliate.id });
    await order({ affiliate_id: affiliate.id, coupon_code: 'TEN' });
    await order({ product_pid: recurring.pid, plan_id: plan.body.plan.plan_id });
    await order({ product_pid: recurring.pid, plan_id: plan.body.plan.plan_id, coupon_code: 'TEN' });
    const read = await t.http.get(`/v1/orders/${created.body.order_number}`).set(seller.auth).expect(200);
    await t.http.get(`/v1/orders/${read.body.order.id}`).set(seller.auth).expect(200);
    await t.http.get(`/v1/customers/${read.body.order.customer.id}/orders`).set(seller.auth).expect(200);
    await t.http.get(`/v1/plans/${plan.body.plan.plan_id}/subscribers`).set(seller.auth).expect(200);

    // Nothing hand-written is built on the way: a statement built per request would be missing
    // from hand-written.sql unless a test happened to run it.
    expect(handWritten(t.dataSource)).toEqual(atStart);
    expectSnapshot('hot-statements.sql', generatedStatementTexts(t.dataSource));
  });
});
