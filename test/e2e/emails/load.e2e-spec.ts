import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkoutOf, customerBody, sellerApi } from '../../factories/api';
import { createSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';
import { SmtpSink } from './smtp-sink';
import { jobsCompleted, messageRows } from './support';

const ORDERS = 200;
const PARALLEL = 10;

/** Receipts under load: every approved order's customer gets one receipt, none twice. */
describe('customer emails under load', () => {
  let t: TestApp;
  let sink: SmtpSink;

  beforeAll(async () => {
    sink = await SmtpSink.start();
    t = await createTestApp({
      env: { SMTP_URL: sink.url(), MAIL_RETRY_DELAY_SECONDS: '1', DATA_DIR: mkdtempSync(join(tmpdir(), 'emails-')) },
    });
  });
  afterAll(async () => {
    await t.close();
    await sink.close();
  });

  it(`${ORDERS} approvals → ${ORDERS} receipts, none twice`, async () => {
    const seller = await createSeller(t);
    const api = sellerApi(t.http, seller.auth);
    const product = await api.product({ name: 'Ebook', price: 100 });
    const sessions = await Promise.all(
      Array.from({ length: ORDERS }, (_, i) =>
        api.order({ amount: 100, product_pid: product.pid, customer: customerBody(`buyer-${i}@example.com`) }),
      ),
    );
    // Some refused on the way: their retries must not duplicate anything.
    sink.refuseNext(5);
    for (let i = 0; i < sessions.length; i += PARALLEL) {
      const statuses = await Promise.all(
        sessions.slice(i, i + PARALLEL).map((s) => checkoutOf(t.http, s).pay({ payment_number: '841234567' })),
      );
      expect(statuses).toEqual(Array(statuses.length).fill('approved'));
    }

    await sink.waitFor(ORDERS, 'accepted', 120_000);
    const rows = await messageRows(t.dataSource, `kind = 'receipt' AND store_id = $1`, [seller.storeId]);
    expect(rows).toHaveLength(ORDERS);
    await jobsCompleted(
      t.dataSource,
      rows.map((r) => r.event_id),
    );
    // Every job is done: nothing more can arrive.
    expect(sink.refusals).toBe(5);
    expect(sink.accepted).toHaveLength(ORDERS);
    const recipients = sink.accepted.map((m) => m.envelope.to.join(','));
    expect(new Set(recipients).size).toBe(ORDERS);
    expect(recipients.sort()).toEqual(Array.from({ length: ORDERS }, (_, i) => `buyer-${i}@example.com`).sort());
    const subjects = new Set(sink.accepted.map((m) => m.parsed.subject));
    expect(subjects.size).toBe(ORDERS);
    expect(new Set(sink.accepted.map((m) => m.parsed.messageId)).size).toBe(ORDERS);
    const settled = await messageRows(t.dataSource, `kind = 'receipt' AND store_id = $1`, [seller.storeId]);
    const states = settled.reduce<Record<string, number>>(
      (acc, r) => ({ ...acc, [r.state]: (acc[r.state] ?? 0) + 1 }),
      {},
    );
    expect(states).toEqual({ sent: ORDERS });
  }, 240_000);
});
