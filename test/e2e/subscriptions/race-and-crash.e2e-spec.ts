import { spawn } from 'node:child_process';
import type { DomainEvent } from '../../../src/common/events/domain-event';
import { DomainEvents } from '../../../src/common/events/domain-events';
import { SubscriptionSweep } from '../../../src/modules/billing/subscriptions/subscription-sweep.service';
import { createSeller, TestSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';
import { createInstanceOn, Receiver, startReceiver, waitUntil } from '../webhooks/helpers';
import {
  getSubscription,
  HOUR,
  ofSubscription,
  recordDomainEvents,
  ROOT,
  subscribe,
  Subscribed,
  withoutSavedNumber,
} from './helpers';

function runSweepProcess(env: Record<string, string>) {
  let out = '';
  const child = spawn(
    process.execPath,
    ['-r', 'ts-node/register/transpile-only', 'test/e2e/subscriptions/sweep-process.ts'],
    {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: 'test', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  return new Promise<{ signal: NodeJS.Signals | null; output: string }>((resolve) =>
    child.once('exit', (_code, signal) => resolve({ signal, output: out })),
  );
}

describe('The sweep raced and killed half-way (every step idempotent)', () => {
  let t: TestApp;
  let seller: TestSeller;
  let receiver: Receiver;
  let events: DomainEvent[];

  beforeAll(async () => {
    t = await createTestApp({ env: { SUBSCRIPTION_SWEEP_SECONDS: '86400' } });
    seller = await createSeller(t);
    receiver = await startReceiver();
    events = recordDomainEvents(t);
    await t.http
      .post('/v1/webhooks')
      .set(seller.auth)
      .send({ url: receiver.url, events: ['subscription_past_due'] })
      .expect(201);
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  const renewalOrders = async (
    subscriptionId: number,
  ): Promise<Array<{ order_number: string; subscription_period: number }>> =>
    t.dataSource.query(
      `SELECT order_number, subscription_period FROM orders WHERE subscription_id = $1 AND subscription_period > 1`,
      [subscriptionId],
    );

  it('two instances sweeping the same instant at once create one renewal order and one event per subscription', async () => {
    const subs: Subscribed[] = [];
    for (let i = 0; i < 4; i++)
      subs.push(
        await subscribe(t, seller, { at: new Date(`2031-03-01T0${i + 1}:00:00.000Z`), paymentNumber: '841230003' }),
      );
    const other = await createInstanceOn(t.config.database.url!, {
      SUBSCRIPTION_SWEEP_SECONDS: '86400',
      BASE_URL: t.config.urls.base,
    });
    const otherEvents: DomainEvent[] = [];
    other.app.get(DomainEvents).inTransaction('*', async (event) => {
      otherEvents.push(event);
    });
    try {
      // Within the 72-hour lead of every end_date (Apr 1, 01:00–04:00) and before any of them.
      const at = new Date('2031-03-30T12:00:00.000Z');
      const sweeps = [
        t.app.get(SubscriptionSweep),
        other.app.get(SubscriptionSweep),
        t.app.get(SubscriptionSweep),
        other.app.get(SubscriptionSweep),
      ];
      const reports = await Promise.all(sweeps.map((sweep) => sweep.sweep(at)));
      for (const report of reports) expect(report.errors).toEqual([]);
      for (const s of subs) {
        expect(await renewalOrders(s.subscriptionId)).toHaveLength(1);
        const created = reports.flatMap((r) => r.renewal_orders).filter((r) => r.subscription_id === s.subscriptionId);
        expect(created).toHaveLength(1);
        const attempts = reports.flatMap((r) => r.attempts).filter((r) => r.subscription_id === s.subscriptionId);
        expect(attempts).toEqual([expect.objectContaining({ attempt: 1, outcome: 'declined' })]);
        expect(
          [...ofSubscription(events, s.subscriptionId), ...ofSubscription(otherEvents, s.subscriptionId)].sort(),
        ).toEqual(['subscription.payment_failed']);
      }

      // And past_due, raced at each end_date: one transition, one webhook each.
      const ends = subs.map((s) => new Date(s.subscription.end_date).getTime());
      const end = new Date(Math.max(...ends));
      const dueReports = await Promise.all(sweeps.map((sweep) => sweep.sweep(end)));
      for (const s of subs)
        expect(dueReports.flatMap((r) => r.past_due).filter((id) => id === s.subscriptionId)).toHaveLength(1);
      await receiver.waitFor(4);
      await new Promise((r) => setTimeout(r, 1500));
      const sent = receiver.requests.map((r) => JSON.parse(r.body).order_number).sort();
      const renewals = (await Promise.all(subs.map((s) => renewalOrders(s.subscriptionId))))
        .map((rows) => rows[0].order_number)
        .sort();
      expect(sent).toEqual(renewals);
    } finally {
      await other.close();
    }
  });

  it('a sweep killed inside its second step and run again: no second renewal order, no second event', async () => {
    const subs: Subscribed[] = [];
    for (let i = 0; i < 3; i++)
      subs.push(
        await subscribe(t, seller, { at: new Date(`2032-05-10T0${i + 7}:00:00.000Z`), paymentNumber: '841230003' }),
      );
    // Renewals paid through their link, so each renewal order publishes renewal_due (the kill point).
    for (const s of subs) await withoutSavedNumber(t, s);
    const at = new Date('2032-06-09T00:00:00.000Z');
    const env = {
      DATABASE_URL: t.config.database.url!,
      DATA_DIR: t.config.dataDir,
      BASE_URL: t.config.urls.base,
      AT: at.toISOString(),
    };

    const killed = await runSweepProcess({ ...env, KILL_ON: 'subscription.renewal_due', KILL_AT: '2' });
    expect(killed.signal).toBe('SIGKILL');
    expect(killed.output).toContain('killing');
    expect(killed.output).not.toContain('finished');
    const before = await Promise.all(subs.map((s) => renewalOrders(s.subscriptionId)));
    // The first subscription's step committed before the kill; the second's never did.
    expect(before.map((rows) => rows.length)).toEqual([1, 0, 0]);

    const rerun = await t.app.get(SubscriptionSweep).sweep(at);
    expect(rerun.errors).toEqual([]);
    expect(rerun.renewal_orders.map((r) => r.subscription_id).sort()).toEqual(
      [subs[1].subscriptionId, subs[2].subscriptionId].sort(),
    );
    for (const s of subs) expect(await renewalOrders(s.subscriptionId)).toHaveLength(1);
    // This process published renewal_due only for the two the killed sweep had not done.
    expect(ofSubscription(events, subs[0].subscriptionId).filter((e) => e === 'subscription.renewal_due')).toEqual([]);
    expect(ofSubscription(events, subs[1].subscriptionId).filter((e) => e === 'subscription.renewal_due')).toHaveLength(
      1,
    );
    expect(ofSubscription(events, subs[2].subscriptionId).filter((e) => e === 'subscription.renewal_due')).toHaveLength(
      1,
    );

    // Killed again inside the second past_due: the first one's webhook is recorded once, and the re-run sends the others once.
    const seen = receiver.requests.length;
    const end = new Date(Math.max(...subs.map((s) => new Date(s.subscription.end_date).getTime())) + HOUR);
    const killedDue = await runSweepProcess({
      ...env,
      AT: end.toISOString(),
      KILL_ON: 'subscription.past_due',
      KILL_AT: '2',
    });
    expect(killedDue.signal).toBe('SIGKILL');
    expect((await getSubscription(t, seller, subs[0].subscriptionId)).status).toBe('past_due');
    expect((await getSubscription(t, seller, subs[1].subscriptionId)).status).toBe('active');
    const again = await t.app.get(SubscriptionSweep).sweep(end);
    expect(again.past_due.sort()).toEqual([subs[1].subscriptionId, subs[2].subscriptionId].sort());
    await waitUntil(
      () => receiver.requests.length >= seen + 3,
      15_000,
      () => `${receiver.requests.length - seen}/3 past_due webhooks`,
    );
    await new Promise((r) => setTimeout(r, 1500));
    const rows: Array<{ order_id: number; n: number }> = await t.dataSource.query(
      `SELECT order_id, count(*)::int AS n FROM webhook_deliveries WHERE event_kind = 'subscription_past_due' AND order_id IN (SELECT id FROM orders WHERE subscription_id = ANY($1)) GROUP BY order_id`,
      [subs.map((s) => s.subscriptionId)],
    );
    expect(rows.map((r) => r.n)).toEqual([1, 1, 1]);
    expect(receiver.requests.length - seen).toBe(3);
  });
});
