import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import TestAgent from 'supertest/lib/agent';
import { checkoutOf } from '../../factories/api';
import { ApiKeysService } from '../../../src/modules/identity/api-keys/api-keys.service';
import { createSeller, TestSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';
import { createOrder, insertProduct, orderBody, pathOf } from '../billing/fixtures';
import { orderId, settledMessage } from '../emails/support';
import { csrfFrom, submit, testId, webAgent } from './support/web';

interface StoreRow {
  id: number;
  live_store_id: number | null;
  name: string;
  brand: string;
  contact_number: string | null;
  logo_url: string | null;
  currency: string;
}

/** Settings → Store (README, *Operating it*): the form, its messages, the currency lock, CSRF, tenancy, test mode. */
describe('dashboard: Settings → Store', () => {
  let t: TestApp;
  // Without SMTP_URL the emails are files under $DATA_DIR/outbox/ (README, *Customer emails*).
  const dataDir = mkdtempSync(join(tmpdir(), 'store-settings-'));

  beforeAll(async () => {
    t = await createTestApp({ env: { DATA_DIR: dataDir } });
  });
  afterAll(() => t.close());

  const PAGE = '/web/settings/store';

  async function loggedIn(seller: TestSeller): Promise<TestAgent> {
    const agent = webAgent(t);
    const res = await submit(agent, '/web/login', '/web/login', { email: seller.email, password: seller.password });
    expect(res.status).toBe(303);
    return agent;
  }

  async function storeRows(liveStoreId: number): Promise<StoreRow[]> {
    return t.dataSource.query(
      `SELECT id, live_store_id, name, brand, contact_number, logo_url, currency FROM stores
        WHERE id = $1 OR live_store_id = $1 ORDER BY id`,
      [liveStoreId],
    );
  }

  const valid = {
    name: 'Aurora Books',
    brand: 'Aurora',
    contact_number: '+258 84 123 4567',
    logo_url: 'https://img.example.com/aurora.png',
    currency: 'USD',
  };

  it('needs a session: GET and POST go to the login page', async () => {
    const res = await webAgent(t).get(PAGE).expect(303);
    expect(res.headers.location).toBe(`/web/login?next=${encodeURIComponent(PAGE)}`);
    // With a valid CSRF token but no seller in the session, the form changes nothing.
    const agent = webAgent(t);
    const login = await agent.get('/web/login').expect(200);
    const posted = await agent
      .post(PAGE)
      .type('form')
      .send({ ...valid, _csrf: csrfFrom(login.text) })
      .expect(303);
    expect(posted.headers.location).toMatch(/^\/web\/login\?next=/);
  });

  it('shows the store with its settings, linked from the navigation', async () => {
    const seller = await createSeller(t, { brand: 'Old Brand' });
    const agent = await loggedIn(seller);
    const home = await agent.get('/web/').expect(200);
    expect(home.text).toContain(`href="${PAGE}"`);
    const page = await agent.get(PAGE).expect(200);
    expect(page.text).toMatch(/<input id="name" name="name" [^>]*value="Store [0-9a-f]+"/);
    expect(page.text).toMatch(/<input id="brand" name="brand" [^>]*value="Old Brand"/);
    expect(page.text).toMatch(/<input id="currency" name="currency" [^>]*value="MZN"/);
    expect(page.text).not.toMatch(/<input id="currency"[^>]*readonly/);
    expect(page.text).not.toContain('data-testid="currency-locked"');
  });

  it('refuses bad input with each field’s message beside it (422) and changes nothing', async () => {
    const seller = await createSeller(t, { brand: 'Kept Brand' });
    const agent = await loggedIn(seller);
    const before = await storeRows(seller.storeId);

    const empty = await submit(agent, PAGE, PAGE, {
      name: ' ',
      brand: '',
      contact_number: '',
      logo_url: '',
      currency: '',
    });
    expect(empty.status).toBe(422);
    expect(testId(empty.text, 'error-name')).toBe('name is required.');
    expect(testId(empty.text, 'error-brand')).toBe('brand is required.');
    expect(testId(empty.text, 'error-currency')).toBe('currency is required.');
    expect(empty.text).not.toContain('data-testid="error-contact_number"');
    expect(empty.text).not.toContain('data-testid="error-logo_url"');

    const wrong = await submit(agent, PAGE, PAGE, {
      name: 'x'.repeat(256),
      brand: 'Fine brand',
      contact_number: 'call me',
      logo_url: 'ftp://img.example.com/logo.png',
      currency: 'dollars',
    });
    expect(wrong.status).toBe(422);
    expect(testId(wrong.text, 'error-name')).toBe('name must be at most 255 characters.');
    expect(wrong.text).not.toContain('data-testid="error-brand"');
    expect(testId(wrong.text, 'error-contact_number')).toBe('contact_number must be a phone number.');
    expect(testId(wrong.text, 'error-logo_url')).toBe('logo_url must be an http(s) URL.');
    expect(testId(wrong.text, 'error-currency')).toBe(
      'currency must be an ISO 4217 code, for example MZN, USD or EUR.',
    );
    // The form keeps what was typed, so the seller corrects it instead of starting over.
    expect(wrong.text).toMatch(/<input id="contact_number" name="contact_number" [^>]*value="call me"/);
    expect(wrong.text).toMatch(/<input id="brand" name="brand" [^>]*value="Fine brand"/);

    const unstorable = await submit(agent, PAGE, PAGE, { ...valid, brand: 'Bad\u0000brand' });
    expect(unstorable.status).toBe(422);

    expect(await storeRows(seller.storeId)).toEqual(before);
  });

  it('saves every field while the store has no order, and the checkout shows the new brand, logo and contact', async () => {
    const seller = await createSeller(t, { brand: 'Before' });
    const agent = await loggedIn(seller);
    const res = await submit(agent, PAGE, PAGE, { ...valid, currency: 'usd' });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(`${PAGE}?saved=1`);
    const [live] = await storeRows(seller.storeId);
    expect(live).toMatchObject({
      name: 'Aurora Books',
      brand: 'Aurora',
      contact_number: '+258 84 123 4567',
      logo_url: 'https://img.example.com/aurora.png',
      currency: 'USD',
    });
    const page = await agent.get(res.headers.location).expect(200);
    expect(page.text).toContain('data-testid="saved"');
    expect(page.text).toContain('data-testid="logo-preview"');

    // Emptying the optional fields clears them.
    expect((await submit(agent, PAGE, PAGE, { ...valid, contact_number: '', logo_url: '' })).status).toBe(303);
    expect((await storeRows(seller.storeId))[0]).toMatchObject({ contact_number: null, logo_url: null });
    expect((await submit(agent, PAGE, PAGE, valid)).status).toBe(303);

    const product = await insertProduct(t, seller.storeId, { name: 'Aurora guide' });
    const order = await createOrder(t, seller, orderBody(product.pid));
    const checkout = await t.http.get(pathOf(order.checkout_url)).expect(200);
    expect(testId(checkout.text, 'brand')).toBe('Aurora');
    expect(checkout.text).toContain('src="https://img.example.com/aurora.png"');
    expect(checkout.text).toContain('href="tel:+258841234567"');
    expect(checkout.text).toContain('USD');
  });

  it('the receipt and the order page use the settings as they are when the buyer gets them', async () => {
    const seller = await createSeller(t, { brand: 'First Brand' });
    const agent = await loggedIn(seller);
    const product = await insertProduct(t, seller.storeId, { name: 'Brand guide' });
    const order = await createOrder(t, seller, orderBody(product.pid));
    // Changed after the order was made, before it is paid.
    expect((await submit(agent, PAGE, PAGE, { ...valid, currency: 'MZN', brand: 'Second Brand' })).status).toBe(303);
    expect(await checkoutOf(t.http, order).pay({ payment_number: '841234567' })).toBe('approved');

    const row = await settledMessage(t.dataSource, 'receipt', await orderId(t.dataSource, order.order_number));
    expect(row.state).toBe('sent');
    const mail = await simpleParser(readFileSync(row.detail!));
    expect(mail.subject).toBe(`Your receipt from Second Brand: order ${order.order_number}`);
    expect(mail.from?.value[0].name).toBe('Second Brand');
    expect(mail.text).not.toContain('First Brand');

    const portal = /\/pay\/order\/[^\s"<]+/.exec(mail.text ?? '')?.[0];
    expect(portal).toBeDefined();
    const page = await t.http.get(portal!.replace(/&amp;/g, '&')).expect(200);
    expect(testId(page.text, 'brand')).toBe('Second Brand');
    expect(page.text).toContain('src="https://img.example.com/aurora.png"');
    expect(testId(page.text, 'store-contact')).toContain('Call Second Brand on');
  });

  it('locks the currency once the store has an order: shown read-only with the reason, a change refused', async () => {
    const seller = await createSeller(t, { brand: 'Locked' });
    const agent = await loggedIn(seller);
    const product = await insertProduct(t, seller.storeId);
    await createOrder(t, seller, orderBody(product.pid));

    const page = await agent.get(PAGE).expect(200);
    expect(page.text).toMatch(/<input id="currency" name="currency" [^>]*value="MZN" readonly/);
    expect(testId(page.text, 'currency-locked')).toContain('each order keeps the currency it was made in');

    const before = await storeRows(seller.storeId);
    const refused = await submit(agent, PAGE, PAGE, { ...valid, currency: 'EUR' });
    expect(refused.status).toBe(422);
    expect(testId(refused.text, 'error-currency')).toBe('currency cannot change once the store has an order.');
    expect(refused.text).toMatch(/<input id="currency" name="currency" [^>]*value="MZN" readonly/);
    expect(await storeRows(seller.storeId)).toEqual(before);

    // The other fields still change, with the currency as it is.
    expect((await submit(agent, PAGE, PAGE, { ...valid, currency: 'MZN' })).status).toBe(303);
    expect((await storeRows(seller.storeId))[0]).toMatchObject({ brand: 'Aurora', currency: 'MZN' });
  });

  it('rejects a POST without the right CSRF token (403) and changes nothing', async () => {
    const seller = await createSeller(t, { brand: 'Guarded' });
    const agent = await loggedIn(seller);
    await agent.get(PAGE).expect(200);
    const before = await storeRows(seller.storeId);
    await agent.post(PAGE).type('form').send(valid).expect(403);
    await agent
      .post(PAGE)
      .type('form')
      .send({ ...valid, _csrf: 'not-the-token' })
      .expect(403);
    expect(await storeRows(seller.storeId)).toEqual(before);
  });

  it("keeps sellers apart: another seller's session sees and changes only its own store", async () => {
    const ana = await createSeller(t, { brand: 'Ana Brand' });
    const rui = await createSeller(t, { brand: 'Rui Brand' });
    const anaBefore = await storeRows(ana.storeId);
    const ruiAgent = await loggedIn(rui);
    const page = await ruiAgent.get(PAGE).expect(200);
    expect(page.text).toContain('Rui Brand');
    expect(page.text).not.toContain('Ana Brand');
    expect((await submit(ruiAgent, PAGE, PAGE, { ...valid, brand: 'Rui Renamed' })).status).toBe(303);
    expect((await storeRows(rui.storeId))[0].brand).toBe('Rui Renamed');
    expect(await storeRows(ana.storeId)).toEqual(anaBefore);
    const anaPage = await (await loggedIn(ana)).get(PAGE).expect(200);
    expect(anaPage.text).toContain('Ana Brand');
    expect(anaPage.text).not.toContain('Rui Renamed');
  });

  it('test mode: the test store copies the settings and takes every change; test orders lock the currency too', async () => {
    const seller = await createSeller(t, { brand: 'Live Brand' });
    expect((await submit(await loggedIn(seller), PAGE, PAGE, { ...valid, brand: 'Live Brand' })).status).toBe(303);
    const agent = await loggedIn(seller);
    const home = await agent.get('/web/').expect(200);
    await agent
      .post('/web/test-mode')
      .type('form')
      .send({ _csrf: csrfFrom(home.text), test: 'on', next: PAGE })
      .expect(303);
    const [live, test] = await storeRows(seller.storeId);
    expect(test.live_store_id).toBe(live.id);
    const settings = ({ name, brand, contact_number, logo_url, currency }: StoreRow) => ({
      name,
      brand,
      contact_number,
      logo_url,
      currency,
    });
    expect(settings(test)).toEqual(settings(live));

    // With the switch on, the page edits the same (shared) settings, and says so.
    const page = await agent.get(PAGE).expect(200);
    expect(page.text).toContain('data-testid="shared-settings"');
    expect((await submit(agent, PAGE, PAGE, { ...valid, brand: 'Both Modes', currency: 'ZAR' })).status).toBe(303);
    const [liveAfter, testAfter] = await storeRows(seller.storeId);
    expect(liveAfter).toMatchObject({ brand: 'Both Modes', currency: 'ZAR' });
    expect(settings(testAfter)).toEqual(settings(liveAfter));

    // An order of the test side fixes the currency of both (orders keep theirs).
    const testKey = await t.app.get(ApiKeysService).create({
      storeId: seller.storeId,
      sellerId: seller.sellerId,
      name: 'test',
      scopes: ['orders.write'],
      test: true,
    });
    const product = await insertProduct(t, testAfter.id);
    const res = await t.http
      .post('/v1/orders')
      .set({ Authorization: `Bearer ${testKey.token}` })
      .send(orderBody(product.pid));
    expect(res.status).toBe(201);
    const locked = await agent.get(PAGE).expect(200);
    expect(testId(locked.text, 'currency-locked')).toContain('test orders');
    const refused = await submit(agent, PAGE, PAGE, { ...valid, currency: 'USD' });
    expect(refused.status).toBe(422);
    expect(testId(refused.text, 'error-currency')).toBe('currency cannot change once the store has an order.');
    expect((await storeRows(seller.storeId)).map((row) => row.currency)).toEqual(['ZAR', 'ZAR']);

    // Removing the test data frees it again (the live side has no order).
    await t.http
      .delete('/v1/test-data')
      .set({ Authorization: `Bearer ${testKey.token}` })
      .expect(200);
    expect((await submit(agent, PAGE, PAGE, { ...valid, currency: 'USD' })).status).toBe(303);
    expect((await storeRows(seller.storeId)).map((row) => row.currency)).toEqual(['USD', 'USD']);
  });
});
