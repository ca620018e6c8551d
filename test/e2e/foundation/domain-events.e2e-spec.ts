import { Injectable, Module, OnModuleInit } from '@nestjs/common';
import { domainEvent, DomainEvent } from '../../../src/common/events/domain-event';
import { DomainEvents } from '../../../src/common/events/domain-events';
import { checkoutOf, customerBody, sellerApi } from '../../factories/api';
import { createSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';

/** What a plugin's after-commit listener saw, and a switch to make its next run fail. */
class Seen {
  readonly runs: DomainEvent[] = [];
  failNext = 0;
  private waiters: Array<{ count: number; resolve: () => void }> = [];

  record(event: DomainEvent): void {
    this.runs.push(event);
    this.waiters = this.waiters.filter((w) => (this.runs.length >= w.count ? (w.resolve(), false) : true));
  }

  /** Resolves once `count` runs happened (the handler calls it; no polling). */
  until(count: number): Promise<void> {
    return this.runs.length >= count
      ? Promise.resolve()
      : new Promise((resolve) => this.waiters.push({ count, resolve }));
  }
}

const seen = new Seen();

@Injectable()
class ApprovalListener implements OnModuleInit {
  constructor(private readonly events: DomainEvents) {}

  onModuleInit(): void {
    this.events.afterCommit(
      'test-approvals',
      ['order.approved', 'test.thing'],
      async (event) => {
        seen.record(event);
        if (seen.failNext > 0) {
          seen.failNext--;
          throw new Error('listener failed on purpose');
        }
      },
      { retryLimit: 3, retryDelaySeconds: 1, retryBackoff: false },
    );
  }
}

@Module({ providers: [ApprovalListener] })
class ListenerPlugin {}

/** The after-commit hook (common/events): durable, after commit only, retried, never silent. */
describe('domain events after commit', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ plugins: [ListenerPlugin] });
  });
  afterAll(() => t.close());

  it('runs a listener once the order change committed, with ids and states only', async () => {
    const seller = await createSeller(t);
    const api = sellerApi(t.http, seller.auth);
    const product = await api.product({ name: 'Ebook', price: 100 });
    const order = await api.order({ amount: 100, product_pid: product.pid, customer: customerBody('ana@example.com') });
    const before = seen.runs.length;
    expect(await checkoutOf(t.http, order).pay({ payment_number: '841234567' })).toBe('approved');
    await seen.until(before + 1);
    const event = seen.runs[before];
    const [row] = await t.dataSource.query('SELECT id, product_id FROM orders WHERE order_number = $1', [
      order.order_number,
    ]);
    expect(event).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      type: 'order.approved',
      storeId: seller.storeId,
      aggregate: { type: 'order', id: row.id },
      from: 'pending',
      to: 'approved',
      refs: { orderId: row.id, productId: row.product_id, planId: null },
      occurredAt: expect.stringMatching(/Z$/),
    });
  });

  it('retries a listener that throws, with the same event', async () => {
    const before = seen.runs.length;
    seen.failNext = 1;
    const event = domainEvent({
      type: 'test.thing',
      storeId: 1,
      aggregate: { type: 'thing', id: 1 },
      from: null,
      to: 'made',
      refs: {},
      occurredAt: new Date().toISOString(),
    });
    await t.dataSource.transaction((manager) => t.app.get(DomainEvents).publish(event, manager));
    await seen.until(before + 2);
    expect(seen.runs.slice(before).map((e) => e.id)).toEqual([event.id, event.id]);
  });

  it('queues nothing for a change that rolled back', async () => {
    const event = domainEvent({
      type: 'test.thing',
      storeId: 1,
      aggregate: { type: 'thing', id: 2 },
      from: null,
      to: 'made',
      refs: {},
      occurredAt: new Date().toISOString(),
    });
    await expect(
      t.dataSource.transaction(async (manager) => {
        await t.app.get(DomainEvents).publish(event, manager);
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    const committed = domainEvent({ ...event, aggregate: { type: 'thing', id: 3 } });
    const before = seen.runs.length;
    await t.dataSource.transaction((manager) => t.app.get(DomainEvents).publish(committed, manager));
    await seen.until(before + 1);
    const jobs = await t.dataSource.query(`SELECT singleton_key FROM pgboss.job WHERE name = 'event:test-approvals'`);
    expect(jobs.map((j: { singleton_key: string }) => j.singleton_key)).toContain(committed.id);
    expect(jobs.map((j: { singleton_key: string }) => j.singleton_key)).not.toContain(event.id);
    expect(seen.runs.map((e) => e.id)).not.toContain(event.id);
  });

  it("sends statements made together on a transaction's connection at once (pg's pipelining), answered in call order", async () => {
    // publishAll runs the in-transaction handlers of a group's events at once on one connection;
    // pg 8 queues such calls with a deprecation warning, pg 9 refuses them unless the client pipelines.
    const rows = await t.dataSource.transaction((manager) => {
      const client = (manager.queryRunner as unknown as { databaseConnection: { pipeline?: boolean } })
        .databaseConnection;
      expect(client.pipeline).toBe(true);
      return Promise.all([
        manager.query('SELECT 1 AS n FROM pg_sleep(0.05)'),
        manager.query('SELECT 2 AS n'),
        manager.query('SELECT 3 AS n'),
      ]);
    });
    expect(rows).toEqual([[{ n: 1 }], [{ n: 2 }], [{ n: 3 }]]);

    // A failing statement fails those sent after it in the transaction, as one at a time would.
    const outcomes = await t.dataSource
      .transaction(async (manager) => {
        const settled = await Promise.allSettled([
          manager.query('SELECT 1 AS n'),
          manager.query('SELECT 1 / 0 AS n'),
          manager.query('SELECT 3 AS n'),
        ]);
        throw Object.assign(new Error('rolled back'), { settled });
      })
      .catch((error: { settled: PromiseSettledResult<unknown>[] }) => error.settled);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'rejected']);
    expect(String((outcomes[1] as PromiseRejectedResult).reason)).toContain('division by zero');
    expect(String((outcomes[2] as PromiseRejectedResult).reason)).toContain('current transaction is aborted');
    // The connection is whole afterwards: the pool's next transaction runs.
    expect(await t.dataSource.transaction((manager) => manager.query('SELECT 4 AS n'))).toEqual([{ n: 4 }]);
  });

  it('inserts the jobs of a transaction together with its commit', async () => {
    const thing = (id: number) =>
      domainEvent({
        type: 'test.thing',
        storeId: 1,
        aggregate: { type: 'thing', id },
        from: null,
        to: 'made',
        refs: {},
        occurredAt: new Date().toISOString(),
      });
    const events = [thing(10), thing(11), thing(12)];
    const queued = () =>
      t.dataSource
        .query(`SELECT singleton_key FROM pgboss.job WHERE name = 'event:test-approvals' AND singleton_key = ANY($1)`, [
          events.map((e) => e.id),
        ])
        .then((rows: unknown[]) => rows.length);
    const before = seen.runs.length;
    await t.dataSource.transaction(async (manager) => {
      for (const event of events) await t.app.get(DomainEvents).publish(event, manager);
      // Not inserted yet: the jobs go in with the commit.
      const inTransaction = await manager.query(
        `SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'event:test-approvals' AND singleton_key = ANY($1)`,
        [events.map((e) => e.id)],
      );
      expect(inTransaction).toEqual([{ n: 0 }]);
    });
    expect(await queued()).toBe(3);
    await seen.until(before + 3);
    const ran = seen.runs.slice(before).map((e) => e.id);
    expect(ran.sort()).toEqual(events.map((e) => e.id).sort());
  });
});
