import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkoutOf, customerBody, sellerApi, SellerApi } from '../../factories/api';
import { createSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';
import { SmtpSink } from './smtp-sink';
import { messageRows, orderId, settledMessage } from './support';

const PAYMENTS = 12;

/** A broken mail server never holds up a checkout, and loses nothing. */
describe('a hanging SMTP server', () => {
  let t: TestApp;
  let sink: SmtpSink;
  let api: SellerApi;
  let product: { pid: string };

  beforeAll(async () => {
    sink = await SmtpSink.start();
    t = await createTestApp({
      env: { SMTP_URL: sink.url(), MAIL_RETRY_DELAY_SECONDS: '1', DATA_DIR: mkdtempSync(join(tmpdir(), 'emails-')) },
    });
    const seller = await createSeller(t);
    api = sellerApi(t.http, seller.auth);
    product = await api.product({ name: 'Ebook', price: 100 });
  });
  afterAll(async () => {
    await t.close();
    await sink.close();
  });

  /** Pays `count` new orders one after another; every payment is approved. */
  async function payments(prefix: string, count: number): Promise<string[]> {
    const orders: string[] = [];
    for (let i = 0; i < count; i++) {
      const session = await api.order({
        amount: 100,
        product_pid: product.pid,
        customer: customerBody(`${prefix}-${i}@example.com`),
      });
      expect(await checkoutOf(t.http, session).pay({ payment_number: '841234567' })).toBe('approved');
      orders.push(session.order_number);
    }
    return orders;
  }

  const acceptedFor = (prefix: string) =>
    sink.accepted.flatMap((m) => m.envelope.to).filter((to) => to.startsWith(`${prefix}-`));

  it('answers every payment while the server hangs on every message, and delivers them once it answers again', async () => {
    // A server that answers at once: each payment's receipt arrives.
    await payments('base', 3);
    await sink.waitFor(3);

    sink.hang();
    const hanging = await payments('hang', PAYMENTS);
    // The server really is holding messages (the listener's concurrent sends are stuck in DATA)…
    await sink.waitFor(1, 'held');
    const held = await messageRows(t.dataSource, `state = 'sending'`);
    expect(held.length).toBeGreaterThan(0);
    // …and every payment was answered although not one of their receipts could be sent: a payment never
    // waits on mail (were it to, the first would still be waiting). Speed is measured by `npm run bench`.
    expect(acceptedFor('hang')).toEqual([]);

    // The server answers again: the held messages are refused (451) and retried, nothing is lost.
    sink.release();
    const ids = await Promise.all(hanging.map((n) => orderId(t.dataSource, n)));
    for (const id of ids) expect((await settledMessage(t.dataSource, 'receipt', id)).state).toBe('sent');
    expect(acceptedFor('hang').sort()).toEqual(
      Array.from({ length: PAYMENTS }, (_, i) => `hang-${i}@example.com`).sort(),
    );
  }, 120_000);
});
