import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DomainEvent } from '../../../src/common/events/domain-event';
import { CustomerMessagesListener } from '../../../src/modules/notifications/customer-messages.listener';
import { CustomerMessagesRepository } from '../../../src/modules/notifications/messages/customer-messages.repository';
import type { MessageRequest } from '../../../src/modules/notifications/messages/customer-message';
import { checkoutOf, customerBody, sellerApi } from '../../factories/api';
import { createSeller } from '../../utils/auth';
import { statementsOf } from '../../utils/statements';
import { createTestApp, TestApp } from '../../utils/test-app';
import { SmtpSink } from './smtp-sink';
import { messageRows } from './support';

const count = (texts: string[], pattern: RegExp) => texts.filter((text) => pattern.test(text)).length;

/**
 * The once-only records of customer messages (README, *Customer emails*) claimed and settled by
 * many jobs at once: one statement for the jobs of a turn, each message still claimed once.
 */
describe('customer message claims made together', () => {
  let t: TestApp;
  let sink: SmtpSink;
  let messages: CustomerMessagesRepository;

  beforeAll(async () => {
    sink = await SmtpSink.start();
    // No queue worker: the test hands the jobs' events to the listener itself, all at once.
    t = await createTestApp({
      env: {
        WEBHOOK_WORKER: 'false',
        SMTP_URL: sink.url(),
        DATA_DIR: mkdtempSync(join(tmpdir(), 'message-claims-')),
      },
    });
    messages = t.app.get(CustomerMessagesRepository);
  });
  afterAll(async () => {
    await t.close();
    await sink.close();
  });

  const request = (ref: string): MessageRequest => ({ kind: 'receipt', ref, orderId: 1 });
  const event = () => ({ storeId: 1, id: randomUUID() });
  const stateOf = async (ref: string) =>
    (
      await t.dataSource.query(`SELECT state, attempts, recipient, last_error FROM customer_messages WHERE ref = $1`, [
        ref,
      ])
    )[0];

  it('claims each message once, the same one asked twice in a turn included, and records them together', async () => {
    const refs = Array.from({ length: 6 }, (_, i) => `order:${i}-${randomUUID().slice(0, 8)}`);
    let claims: Array<{ id: number; attempts: number } | null> = [];
    const claimed = await statementsOf(async () => {
      claims = await Promise.all([
        ...refs.map((ref) => messages.claim('email', request(ref), event(), 60)),
        // A duplicate job of the first message in the same turn.
        messages.claim('email', request(refs[0]), event(), 60),
      ]);
    });
    expect(claimed).toHaveLength(1);
    expect(claims.slice(0, 6).every((c) => c !== null && c.attempts === 1)).toBe(true);
    expect(new Set(claims.slice(0, 6).map((c) => c!.id)).size).toBe(6);
    expect(claims[6]).toBeNull();
    // Claimed and not settled: a second claim now finds it being sent.
    expect(await messages.claim('email', request(refs[1]), event(), 60)).toBeNull();

    const settled = await statementsOf(() =>
      Promise.all([
        messages.settle(claims[0]!.id, { state: 'sent', recipient: 'a@example.com', detail: 'sent' }),
        messages.settle(claims[1]!.id, { state: 'skipped', detail: 'no address' }),
        messages.settle(claims[2]!.id, { state: 'failed', error: 'refused' }),
        messages.settle(claims[3]!.id, { state: 'failed', error: 'timed out' }),
        messages.settle(claims[4]!.id, { state: 'sent', recipient: 'e@example.com', detail: '250 OK' }),
      ]),
    );
    // One statement for the sent and skipped ones, one for the failures.
    expect(settled).toHaveLength(2);
    expect(await stateOf(refs[0])).toEqual({
      state: 'sent',
      attempts: 1,
      recipient: 'a@example.com',
      last_error: null,
    });
    expect(await stateOf(refs[1])).toEqual({ state: 'skipped', attempts: 1, recipient: null, last_error: null });
    expect(await stateOf(refs[2])).toMatchObject({ state: 'failed', last_error: 'refused' });
    expect(await stateOf(refs[3])).toMatchObject({ state: 'failed', last_error: 'timed out' });
    expect(await stateOf(refs[4])).toMatchObject({ state: 'sent', recipient: 'e@example.com' });
    // A failed message is claimed again (its retry), a sent one never.
    const [again, sent] = await Promise.all([
      messages.claim('email', request(refs[2]), event(), 60),
      messages.claim('email', request(refs[0]), event(), 60),
    ]);
    expect(again).toEqual({ id: claims[2]!.id, attempts: 2 });
    expect(sent).toBeNull();
    // A failure recorded for a message no longer being sent (sent by a worker that took it over) changes nothing.
    await messages.settle(claims[0]!.id, { state: 'failed', error: 'late' });
    expect(await stateOf(refs[0])).toMatchObject({ state: 'sent', last_error: null });
  });

  it('handles the receipts of many jobs at once: one email and one record each, read and claimed by one statement; a duplicate sends nothing', async () => {
    const ORDERS = 12;
    const seller = await createSeller(t);
    const api = sellerApi(t.http, seller.auth);
    const product = await api.product({ name: 'Ebook', price: 100 });
    const sessions = await Promise.all(
      Array.from({ length: ORDERS }, (_, i) =>
        api.order({ amount: 100, product_pid: product.pid, customer: customerBody(`batch-${i}@example.com`) }),
      ),
    );
    for (const session of sessions)
      expect(await checkoutOf(t.http, session).pay({ payment_number: '841234567' })).toBe('approved');
    // The receipt jobs the approvals queued, as a worker would get them.
    const jobs: Array<{ data: DomainEvent }> = await t.dataSource.query(
      `SELECT data FROM pgboss.job WHERE name = 'event:customer-emails' AND data->>'type' = 'order.approved'
          AND (data->>'storeId')::int = $1`,
      [seller.storeId],
    );
    expect(jobs).toHaveLength(ORDERS);
    const events = jobs.map((job) => job.data);
    const listener = t.app.get(CustomerMessagesListener);

    // Every job started in one turn, as one fetch of the queue starts them; the first event twice
    // (a duplicate job of the same message running at the same time).
    const handled = await statementsOf(() => Promise.all([...events, events[0]].map((e) => listener.handle(e))));
    expect(count(handled, /^INSERT INTO customer_messages/)).toBe(1);
    // The orders' own rows and their store, read once for all of them.
    expect(count(handled, /WHERE o\.id = ANY\(\$1\)/)).toBe(1);
    expect(count(handled, /FROM "stores" WHERE "id" = ANY\(\$1\)/)).toBe(1);
    // Their product and plan, once (none when the catalog cache holds them).
    expect(count(handled, /LEFT JOIN "products" p ON p\.id = \$1/)).toBeLessThanOrEqual(1);
    // Recorded as the sends finish: at most one statement per message.
    const recorded = count(handled, /^UPDATE customer_messages/);
    expect(recorded).toBeGreaterThanOrEqual(1);
    expect(recorded).toBeLessThanOrEqual(ORDERS);

    expect(sink.accepted).toHaveLength(ORDERS);
    expect(sink.accepted.map((m) => m.envelope.to.join(',')).sort()).toEqual(
      Array.from({ length: ORDERS }, (_, i) => `batch-${i}@example.com`).sort(),
    );
    const ofTheseEvents = `kind = 'receipt' AND event_id = ANY($1)`;
    const rows = await messageRows(t.dataSource, ofTheseEvents, [events.map((e) => e.id)]);
    expect(rows).toHaveLength(ORDERS);
    expect(rows.every((r) => r.state === 'sent' && r.attempts === 1 && r.channel === 'email')).toBe(true);
    expect(new Set(rows.map((r) => r.ref)).size).toBe(ORDERS);

    // The jobs run again (a retry after a crash, a duplicate event): every message is sent already.
    const again = await statementsOf(() => Promise.all(events.map((e) => listener.handle(e))));
    expect(again).toHaveLength(1);
    expect(sink.accepted).toHaveLength(ORDERS);
    const after = await messageRows(t.dataSource, ofTheseEvents, [events.map((e) => e.id)]);
    expect(after.map((r) => [r.state, r.attempts])).toEqual(rows.map(() => ['sent', 1]));
  });
});
