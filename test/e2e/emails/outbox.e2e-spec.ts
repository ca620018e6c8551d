import { runProcess } from '../../utils/run-process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { checkoutOf, customerBody, sellerApi } from '../../factories/api';
import { createSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';
import { definePlugin, type CustomerMessage, type NotificationChannel } from '../../../src/plugins';
import { messageRows, orderId, settledMessage, waitUntil } from './support';
import { JobQueue } from '../../../src/common/jobs/job-queue';

/** A plugin's channel, as another engineer would add SMS: it fails its first send. */
const smsSent: CustomerMessage[] = [];
let smsFailures = 1;

const smsChannel: NotificationChannel = {
  name: 'sms',
  async send(message) {
    if (smsFailures-- > 0) throw new Error('SMS gateway unavailable');
    smsSent.push(message);
    return { outcome: 'sent', recipient: message.customer.mobileNumber, detail: 'queued by the gateway' };
  },
};

const SmsPlugin = definePlugin({ name: 'sms', notificationChannels: [smsChannel] });

/** Without SMTP_URL every message is an `.eml` file under `$DATA_DIR/outbox/`. */
describe('customer emails without SMTP_URL, and a channel added by a plugin', () => {
  let t: TestApp;
  const dataDir = mkdtempSync(join(tmpdir(), 'emails-outbox-'));

  beforeAll(async () => {
    t = await createTestApp({
      env: { DATA_DIR: dataDir, MAIL_FROM: 'sales@shop.example', MAIL_RETRY_DELAY_SECONDS: '1' },
      plugins: [SmsPlugin],
    });
  });
  afterAll(() => t.close());

  /** A new seller's product, bought by `email` and paid in the sandbox. */
  async function paidOrder(product: { brand?: string; name: string; price: number }, email: string) {
    const seller = await createSeller(t, product.brand ? { brand: product.brand } : {});
    const api = sellerApi(t.http, seller.auth);
    const { pid } = await api.product({ name: product.name, price: product.price });
    const session = await api.order({ amount: product.price, product_pid: pid, customer: customerBody(email) });
    expect(await checkoutOf(t.http, session).pay({ payment_number: '841234567' })).toBe('approved');
    return { id: await orderId(t.dataSource, session.order_number), session };
  }

  it('writes the receipt as an .eml file, its path recorded, with MAIL_FROM and the brand; the plugin channel retries alone', async () => {
    const { id, session } = await paidOrder({ brand: 'Casa do Código', name: 'Ebook', price: 120 }, 'dev@example.com');

    const row = await settledMessage(t.dataSource, 'receipt', id);
    const path = join(dataDir, 'outbox', `receipt.order-${id}.${session.order_number}.eml`);
    expect(row).toMatchObject({ state: 'sent', detail: path });
    expect(existsSync(path)).toBe(true);
    expect(readdirSync(join(dataDir, 'outbox'))).toEqual([`receipt.order-${id}.${session.order_number}.eml`]);

    const raw = readFileSync(path);
    // The file is the message as SMTP would carry it: every line ends in CRLF, none in a bare LF.
    expect(raw.toString('latin1')).toMatch(/\r\n/);
    expect(raw.toString('latin1')).not.toMatch(/[^\r]\n/);
    const parsed = await simpleParser(raw);
    expect(parsed.from?.value).toEqual([{ address: 'sales@shop.example', name: 'Casa do Código' }]);
    expect(parsed.to && !Array.isArray(parsed.to) && parsed.to.value).toEqual([
      { address: 'dev@example.com', name: 'Ana Maria' },
    ]);
    expect(parsed.subject).toBe(`Your receipt from Casa do Código: order ${session.order_number}`);
    expect(parsed.messageId).toBe(`<receipt.order-${id}.${session.order_number}@127.0.0.1>`);
    expect(parsed.text).toContain('Paid: 120.00 MZN');
    // One line per line of content (billing README, `checkout/`): the summary is not run together.
    const lines = parsed.text!.split(/\r?\n/);
    expect(lines).toEqual(
      expect.arrayContaining([`Order: ${session.order_number}`, 'Ebook: 120.00 MZN', 'Paid: 120.00 MZN']),
    );
    expect(parsed.text).not.toMatch(/MZN\S/);
    expect(parsed.html).toContain('120.00 MZN');

    // The plugin's channel: failed once, retried alone, then sent; the email was not written again.
    await settledMessage(t.dataSource, 'receipt', id);
    const sms = await waitForSms(id);
    expect(sms).toMatchObject({
      state: 'sent',
      attempts: 2,
      recipient: '+258841234567',
      detail: 'queued by the gateway',
      last_error: 'SMS gateway unavailable',
    });
    expect(smsSent.map((m) => m.id)).toEqual([`receipt.order-${id}.${session.order_number}`]);
    const [email] = await messageRows(t.dataSource, `channel = 'email' AND order_id = $1`, [id]);
    expect(email).toMatchObject({ attempts: 1, recipient: 'dev@example.com' });
  });

  it('makes the outbox again when it was removed while running: that message fails once, then is written whole', async () => {
    const outbox = join(dataDir, 'outbox');
    rmSync(outbox, { recursive: true });
    const { id, session } = await paidOrder({ name: 'Course', price: 80 }, 'again@example.com');

    const row = await settledMessage(t.dataSource, 'receipt', id);
    const name = `receipt.order-${id}.${session.order_number}.eml`;
    expect(row).toMatchObject({ state: 'sent', attempts: 2, detail: join(outbox, name) });
    expect(row.last_error).toContain('ENOENT');
    // Only the finished file: no temporary one left behind by the failed try.
    expect(readdirSync(outbox)).toEqual([name]);
    expect((await simpleParser(readFileSync(join(outbox, name)))).subject).toContain(session.order_number);
  });

  it('takes MAIL_RETRY_DELAY_SECONDS of this start, not of the start that made the queue', async () => {
    const retryDelay = async () =>
      (await t.dataSource.query(`SELECT retry_delay FROM pgboss.queue WHERE name = 'event:customer-emails'`))[0]
        .retry_delay;
    expect(await retryDelay()).toBe(1);
    // As an earlier start with MAIL_RETRY_DELAY_SECONDS=60 left it.
    await t.dataSource.query(`UPDATE pgboss.queue SET retry_delay = 60 WHERE name = 'event:customer-emails'`);
    await t.app.get(JobQueue).applyQueuePolicies();
    expect(await retryDelay()).toBe(1);
  });

  it('a CLI command run with another MAIL_RETRY_DELAY_SECONDS leaves the running workers’ policy', async () => {
    const run = await runProcess(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', 'src/cli/main.ts', 'subscriptions:sweep'],
      {
        NODE_ENV: 'test',
        DATABASE_URL: t.config.database.url!,
        DATA_DIR: t.config.dataDir,
        MAIL_RETRY_DELAY_SECONDS: '60',
      },
    );
    expect(run.code).toBe(0);
    const [{ retry_delay }] = await t.dataSource.query(
      `SELECT retry_delay FROM pgboss.queue WHERE name = 'event:customer-emails'`,
    );
    expect(retry_delay).toBe(1);
  }, 60_000);

  async function waitForSms(id: number) {
    let row: Awaited<ReturnType<typeof messageRows>>[number] | undefined;
    await waitUntil(async () => {
      [row] = await messageRows(t.dataSource, `channel = 'sms' AND order_id = $1`, [id]);
      return row?.state === 'sent';
    });
    return row!;
  }
});
