import { randomUUID } from 'node:crypto';
import { CustomerMessagesRepository } from '../../../src/modules/notifications/messages/customer-messages.repository';
import type { MessageRequest } from '../../../src/modules/notifications/messages/customer-message';
import { createTestApp, TestApp } from '../../utils/test-app';

/**
 * The once-only records of customer messages (README, *Customer emails*) claimed and settled by
 * many jobs at once: one statement for the jobs of a turn, each message still claimed once.
 */
describe('customer message claims made together', () => {
  let t: TestApp;
  let messages: CustomerMessagesRepository;

  beforeAll(async () => {
    t = await createTestApp({ env: { WEBHOOK_WORKER: 'false' } });
    messages = t.app.get(CustomerMessagesRepository);
  });
  afterAll(() => t.close());

  const request = (ref: string): MessageRequest => ({ kind: 'receipt', ref, orderId: 1 });
  const event = () => ({ storeId: 1, id: randomUUID() });
  const stateOf = async (ref: string) =>
    (await t.dataSource.query(`SELECT state, attempts, recipient FROM customer_messages WHERE ref = $1`, [ref]))[0];

  it('claims each message once, the same one asked twice in a turn included, and records them together', async () => {
    const refs = Array.from({ length: 6 }, (_, i) => `order:${i}-${randomUUID().slice(0, 8)}`);
    const claims = await Promise.all([
      ...refs.map((ref) => messages.claim('email', request(ref), event(), 60)),
      // A duplicate job of the first message in the same turn.
      messages.claim('email', request(refs[0]), event(), 60),
    ]);
    expect(claims.slice(0, 6).every((c) => c !== null && c.attempts === 1)).toBe(true);
    expect(new Set(claims.slice(0, 6).map((c) => c!.id)).size).toBe(6);
    expect(claims[6]).toBeNull();
    // Claimed and not settled: a second claim now finds it being sent.
    expect(await messages.claim('email', request(refs[1]), event(), 60)).toBeNull();

    await Promise.all([
      messages.settle(claims[0]!.id, { state: 'sent', recipient: 'a@example.com', detail: 'sent' }),
      messages.settle(claims[1]!.id, { state: 'skipped', detail: 'no address' }),
      messages.settle(claims[2]!.id, { state: 'failed', error: 'refused' }),
    ]);
    expect(await stateOf(refs[0])).toEqual({ state: 'sent', attempts: 1, recipient: 'a@example.com' });
    expect(await stateOf(refs[1])).toEqual({ state: 'skipped', attempts: 1, recipient: null });
    expect(await stateOf(refs[2])).toMatchObject({ state: 'failed' });
    // A failed message is claimed again (its retry), a sent one never.
    const [again, sent] = await Promise.all([
      messages.claim('email', request(refs[2]), event(), 60),
      messages.claim('email', request(refs[0]), event(), 60),
    ]);
    expect(again).toEqual({ id: claims[2]!.id, attempts: 2 });
    expect(sent).toBeNull();
  });
});
