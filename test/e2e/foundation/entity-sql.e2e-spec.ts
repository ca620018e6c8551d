import { DataSource } from 'typeorm';
import { PreparedStatement } from '../../../src/database/prepared-statements';
import { EntityColumns } from '../../../src/database/entity-sql';
import { Order } from '../../../src/modules/billing/orders/order.entity';
import { ORDER_VIEW_COLUMNS } from '../../../src/modules/billing/orders/order.mapper';
import { PaymentAttempt } from '../../../src/modules/billing/payments/payment-attempt.entity';
import { customerBody, sellerApi } from '../../factories/api';
import { createSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';

/**
 * The entity SQL layer (database/entity-sql.ts) on PostgreSQL: its rows are TypeORM's rows, whatever
 * columns the entities have now (a column added, or renamed, in an entity or in the table breaks
 * one of these); saves write only what changed; one prepared statement per distinct SQL text.
 */
describe('entity SQL', () => {
  let t: TestApp;
  let orderId: number;
  let columns: EntityColumns<Order>;

  beforeAll(async () => {
    t = await createTestApp();
    const seller = await createSeller(t);
    const api = sellerApi(t.http, seller.auth);
    const product = await api.product({ name: 'Ebook', price: 100 });
    await api.discount({ code: 'TEN', type: 'percent', value: 10 });
    const created = await t.http
      .post('/v1/orders')
      .set(seller.auth)
      .send({
        amount: 100,
        product_pid: product.pid,
        coupon_code: 'TEN',
        customer: customerBody('ana@example.com'),
        tracking: { utm_source: 'x' },
      })
      .expect(201);
    orderId = (await t.dataSource.manager.findOneByOrFail(Order, { orderNumber: created.body.order_number })).id;
    columns = new EntityColumns(t.dataSource, Order);
  });
  afterAll(() => t.close());

  /** Every column of the table, as PostgreSQL has it. */
  async function tableColumns(dataSource: DataSource, table: string): Promise<string[]> {
    const rows: { column_name: string }[] = await dataSource.query(
      `SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 ORDER BY column_name`,
      [table],
    );
    return rows.map((r) => r.column_name);
  }

  it('names exactly the columns of the table: an entity and its table cannot drift apart unseen', async () => {
    for (const entity of t.dataSource.entityMetadatas) {
      const fromEntity = entity.columns.map((c) => c.databaseName).sort();
      expect({ table: entity.tableName, columns: await tableColumns(t.dataSource, entity.tableName) }).toEqual({
        table: entity.tableName,
        columns: fromEntity,
      });
    }
  });

  it('hydrates every column as TypeORM does (types, transformers, json, timestamps)', async () => {
    const [row] = await new PreparedStatement(
      t.dataSource,
      `SELECT ${columns.select('o')} FROM ${columns.table} o WHERE o.id = $1`,
    ).rows([orderId]);
    const ours = columns.hydrate(row, 'o_');
    const theirs = await t.dataSource.manager.findOneByOrFail(Order, { id: orderId });
    expect(ours).toEqual(theirs);
    expect(ours).toBeInstanceOf(Order);
    expect(Object.keys(ours).sort()).toEqual(
      t.dataSource
        .getMetadata(Order)
        .columns.map((c) => c.propertyName)
        .sort(),
    );
  });

  it('reads the picked columns of the order view by position as TypeORM does', async () => {
    const picked = columns.pick(...ORDER_VIEW_COLUMNS.order);
    const statement = new PreparedStatement(
      t.dataSource,
      `SELECT json_build_array(${picked.jsonValues('o')}) FROM ${columns.table} o WHERE o.id = $1`,
    );
    const [[values]] = await statement.arrays([orderId]);
    const theirs = await t.dataSource.manager.findOneByOrFail(Order, { id: orderId });
    const expected = Object.fromEntries(ORDER_VIEW_COLUMNS.order.map((p) => [p, theirs[p]]));
    expect(picked.read(values as unknown[])).toEqual(expected);
    expect(picked.length).toBe(ORDER_VIEW_COLUMNS.order.length);
    expect(() => columns.pick('noSuchColumn' as keyof Order & string)).toThrow('Order has no column noSuchColumn');
  });

  describe('dirty tracking (saveChanges)', () => {
    const version = async () =>
      ((await t.dataSource.query('SELECT xmin::text AS v FROM orders WHERE id = $1', [orderId])) as { v: string }[])[0]
        .v;
    const load = () =>
      t.dataSource.transaction(async (manager) => {
        const rows = await new PreparedStatement(
          t.dataSource,
          `SELECT ${columns.select('o', '')} FROM ${columns.table} o WHERE o.id = $1`,
        ).rows([orderId], manager);
        return columns.hydrateTracked(rows[0]);
      });

    it('writes nothing when nothing changed, even with equal values in new objects (dates, json)', async () => {
      const order = await load();
      const before = await version();
      order.createdAt = new Date(order.createdAt.getTime());
      order.tracking = { ...order.tracking };
      await t.dataSource.transaction((manager) => columns.saveChanges(manager, order));
      expect(await version()).toBe(before);
    });

    it('writes only the changed columns: a column changed meanwhile by someone else is kept', async () => {
      const order = await load();
      await t.dataSource.query(`UPDATE orders SET return_url = 'https://elsewhere.example/' WHERE id = $1`, [orderId]);
      order.paymentNumber = '841234567';
      order.tracking = { utm_source: 'y' };
      const updatedAt = order.updatedAt;
      await t.dataSource.transaction((manager) => columns.saveChanges(manager, order));
      const stored = await t.dataSource.manager.findOneByOrFail(Order, { id: orderId });
      expect(stored).toMatchObject({
        paymentNumber: '841234567',
        tracking: { utm_source: 'y' },
        returnUrl: 'https://elsewhere.example/',
      });
      expect(order.updatedAt.getTime()).toBe(stored.updatedAt.getTime());
      expect(stored.updatedAt.getTime()).toBeGreaterThanOrEqual(updatedAt.getTime());
      // Saved again unchanged: the remembered values are the saved ones.
      const before = await version();
      await t.dataSource.transaction((manager) => columns.saveChanges(manager, order));
      expect(await version()).toBe(before);
    });
  });

  it('saveChangesAll: orders changed alike in one statement, each value its own (text, char, money, json, dates)', async () => {
    const seller = await createSeller(t);
    const api = sellerApi(t.http, seller.auth);
    const product = await api.product({ name: 'Course', price: 250 });
    const numbers: string[] = [];
    for (let i = 0; i < 3; i++)
      numbers.push(
        (await api.order({ amount: 250, product_pid: product.pid, customer: customerBody(`b${i}@example.com`) }))
          .order_number,
      );
    const load = (manager: import('typeorm').EntityManager) =>
      new PreparedStatement(
        t.dataSource,
        `SELECT ${columns.select('o', '')} FROM ${columns.table} o WHERE o.order_number = ANY($1) ORDER BY o.id`,
      )
        .rows([numbers], manager)
        .then((rows) => rows.map((row) => columns.hydrateTracked(row)));
    const approvedAt = new Date('2031-05-06T07:08:09.123Z');
    const statements: string[] = [];
    let onCleanup = () => undefined as void;
    await t.dataSource.transaction(async (manager) => {
      const [a, b, c] = await load(manager);
      const rows = PreparedStatement.prototype.rows;
      const spy = jest.spyOn(PreparedStatement.prototype, 'rows').mockImplementation(function (
        this: PreparedStatement,
        ...args: Parameters<PreparedStatement['rows']>
      ) {
        statements.push(this.text);
        return rows.apply(this, args);
      });
      onCleanup = () => spy.mockRestore();
      for (const [i, order] of [a, b].entries()) {
        order.status = 'approved';
        order.approvedAt = approvedAt;
        order.transactionId = `tx_${i}`;
        order.amount = 19_999 + i;
        order.tracking = { utm_source: `s${i}` };
      }
      c.paymentNumber = '849999999';
      try {
        await columns.saveChangesAll(manager, [a, b, c]);
      } finally {
        onCleanup();
      }
      expect(a.updatedAt).toBeInstanceOf(Date);
    });
    // The two changed alike in one UPDATE … FROM unnest, the third with its own columns.
    expect(statements.filter((text) => text.includes('unnest'))).toHaveLength(1);
    expect(statements).toHaveLength(2);
    const stored = await t.dataSource.manager.find(Order, {
      where: numbers.map((orderNumber) => ({ orderNumber })),
      order: { id: 'ASC' },
    });
    expect(
      stored.map((o) => [
        o.status,
        o.transactionId,
        o.amount,
        o.currency,
        o.tracking,
        o.approvedAt?.toISOString() ?? null,
        o.paymentNumber,
      ]),
    ).toEqual([
      ['approved', 'tx_0', 19_999, 'MZN', { utm_source: 's0' }, approvedAt.toISOString(), stored[0].paymentNumber],
      ['approved', 'tx_1', 20_000, 'MZN', { utm_source: 's1' }, approvedAt.toISOString(), stored[1].paymentNumber],
      ['pending', null, 25_000, 'MZN', stored[2].tracking, null, '849999999'],
    ]);
  });

  describe('finds, inserts and updates in one statement each, as TypeORM would', () => {
    let attempts: EntityColumns<PaymentAttempt>;
    let storeId: number;
    const values = (reference: string): Partial<PaymentAttempt> => ({
      reference,
      orderId,
      storeId,
      method: 'mpesa',
      provider: 'sandbox',
      amount: 90,
      currency: 'MZN',
      paymentNumber: '841234567',
      offSession: false,
      createdAt: new Date('2030-01-02T03:04:05.678Z'),
      updatedAt: new Date('2030-01-02T03:04:05.678Z'),
    });
    beforeAll(async () => {
      attempts = new EntityColumns(t.dataSource, PaymentAttempt);
      [{ store_id: storeId }] = await t.dataSource.query('SELECT store_id FROM orders WHERE id = $1', [orderId]);
    });
    const UNLESS_PROCESSING = `("order_id") WHERE "status" = 'processing'`;

    it('findOneBy: the entity findOneBy gives, or null', async () => {
      const order = await columns.findOneBy({ id: orderId });
      expect(order).toEqual(await t.dataSource.manager.findOneBy(Order, { id: orderId }));
      expect(order).toBeInstanceOf(Order);
      expect(await columns.findOneBy({ id: orderId, status: 'approved' })).toBeNull();
      expect(await columns.findOneBy({ id: -1 })).toBeNull();
    });

    it('insertUnless: the inserted entity; null, with the transaction still usable, when the index refuses it', async () => {
      const [first, second, count] = await t.dataSource.transaction(async (manager) => {
        const a = await attempts.insertUnless(manager, { ...values('raw-a'), status: 'processing' }, UNLESS_PROCESSING);
        const b = await attempts.insertUnless(manager, { ...values('raw-b'), status: 'processing' }, UNLESS_PROCESSING);
        // A refused insert leaves the transaction usable: no savepoint needed.
        const [{ n }] = await manager.query('SELECT count(*)::int AS n FROM payment_attempts WHERE order_id = $1', [
          orderId,
        ]);
        return [a, b, n];
      });
      expect(second).toBeNull();
      expect(count).toBe(1);
      expect(first).toEqual(await t.dataSource.manager.findOneBy(PaymentAttempt, { reference: 'raw-a' }));
      expect(first).toMatchObject({
        amount: 90,
        status: 'processing',
        createdAt: new Date('2030-01-02T03:04:05.678Z'),
      });
    });

    it('updateWhere: the rows as changed, only where the condition holds', async () => {
      const attempt = (await attempts.findOneBy({ reference: 'raw-a' }))!;
      const change = (from: string[]) =>
        t.dataSource.transaction((manager) =>
          attempts.updateWhere(
            manager,
            { status: 'succeeded', transactionId: 'TX1', errorCode: null, updatedAt: new Date('2030-01-03T00:00:00Z') },
            { key: 'test-change', condition: '"id" = $1 AND "status" = ANY($2)', params: [attempt.id, from] },
          ),
        );
      const [changed] = await change(['processing']);
      expect(changed).toEqual(await t.dataSource.manager.findOneBy(PaymentAttempt, { id: attempt.id }));
      expect(changed).toMatchObject({ status: 'succeeded', transactionId: 'TX1', errorCode: null, amount: 90 });
      expect(await change(['processing'])).toEqual([]);
      const count = (from: string[]) =>
        attempts.updateCount(
          t.dataSource.manager,
          { errorMessage: 'counted' },
          { key: 'test-count', condition: '"id" = $1 AND "status" = ANY($2)', params: [attempt.id, from] },
        );
      expect(await count(['processing'])).toBe(0);
      expect(await count(['succeeded'])).toBe(1);
      expect((await attempts.findOneBy({ id: attempt.id }))!.errorMessage).toBe('counted');
    });
  });

  it('prepares one statement per distinct SQL text on a connection', async () => {
    const text = `SELECT id FROM orders WHERE id = $1`;
    const a = new PreparedStatement(t.dataSource, text);
    const b = new PreparedStatement(t.dataSource, text);
    const other = new PreparedStatement(t.dataSource, `${text} AND status = 'pending'`);
    expect(a.preparedName).toBeDefined();
    expect(b.preparedName).toBe(a.preparedName);
    expect(other.preparedName).not.toBe(a.preparedName);
    const prepared = await t.dataSource.transaction(async (manager) => {
      await a.rows([orderId], manager);
      await b.rows([orderId], manager);
      await other.rows([orderId], manager);
      return manager.query(
        `SELECT name, statement FROM pg_prepared_statements WHERE statement LIKE 'SELECT id FROM orders%' ORDER BY name`,
      );
    });
    expect(prepared).toHaveLength(2);
  });
});
