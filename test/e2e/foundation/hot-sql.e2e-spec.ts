import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { statementTexts } from '../../../src/database/prepared-statements';
import { customerBody, sellerApi } from '../../factories/api';
import { createSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';

/**
 * The SQL of the per-request statements (`PreparedStatement`), generated from the entities'
 * metadata, kept in test/sql-snapshots/hot-statements.sql so a change to it — a column added to an
 * entity, a renamed one, a rule of order creation — shows in review as a diff of that file.
 * After an intended change: `UPDATE_SQL_SNAPSHOTS=1 npx jest test/e2e/foundation/hot-sql.e2e-spec.ts`.
 */
const SNAPSHOT = join(__dirname, '..', '..', 'sql-snapshots', 'hot-statements.sql');

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

describe('SQL of the hot statements', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('matches test/sql-snapshots/hot-statements.sql after every kind of order creation and read', async () => {
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

    const actual = `${statementTexts(t.dataSource).map(layout).join(';\n\n')};\n`;
    if (process.env.UPDATE_SQL_SNAPSHOTS === '1') writeFileSync(SNAPSHOT, actual);
    if (!existsSync(SNAPSHOT)) throw new Error(`${SNAPSHOT} is missing: run with UPDATE_SQL_SNAPSHOTS=1 and commit it`);
    expect(actual).toBe(readFileSync(SNAPSHOT, 'utf8'));
  });
});
