import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { checkoutOf, customerBody, sellerApi } from '../../factories/api';
import { createSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';
import { orderId, settledMessage } from './support';

/** decisions §12: without SMTP_URL every message is an `.eml` file under `$DATA_DIR/outbox/`. */
describe('customer emails without SMTP_URL', () => {
  let t: TestApp;
  const dataDir = mkdtempSync(join(tmpdir(), 'emails-outbox-'));

  beforeAll(async () => {
    t = await createTestApp({ env: { DATA_DIR: dataDir, MAIL_FROM: 'sales@shop.example' } });
  });
  afterAll(() => t.close());

  it('writes the receipt as an .eml file, its path recorded, with MAIL_FROM and the brand', async () => {
    const seller = await createSeller(t, { brand: 'Casa do Código' });
    const api = sellerApi(t.http, seller.auth);
    const product = await api.product({ name: 'Ebook', price: 120 });
    const session = await api.order({ amount: 120, product_pid: product.pid, customer: customerBody('dev@example.com') });
    expect(await checkoutOf(t.http, session).pay({ payment_number: '841234567' })).toBe('approved');
    const id = await orderId(t.dataSource, session.order_number);

    const row = await settledMessage(t.dataSource, 'receipt', id);
    const path = join(dataDir, 'outbox', `receipt.order-${id}.${session.order_number}.eml`);
    expect(row).toMatchObject({ state: 'sent', detail: path });
    expect(existsSync(path)).toBe(true);
    expect(readdirSync(join(dataDir, 'outbox'))).toEqual([`receipt.order-${id}.${session.order_number}.eml`]);

    const parsed = await simpleParser(readFileSync(path));
    expect(parsed.from?.value).toEqual([{ address: 'sales@shop.example', name: 'Casa do Código' }]);
    expect(parsed.to && !Array.isArray(parsed.to) && parsed.to.value).toEqual([{ address: 'dev@example.com', name: 'Ana Maria' }]);
    expect(parsed.subject).toBe(`Your receipt from Casa do Código: order ${session.order_number}`);
    expect(parsed.messageId).toBe(`<receipt.order-${id}.${session.order_number}@127.0.0.1>`);
    expect(parsed.text).toContain('Paid: 120.00 MZN');
    expect(parsed.html).toContain('120.00 MZN');
  });
});
