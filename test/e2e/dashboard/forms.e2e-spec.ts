import TestAgent from 'supertest/lib/agent';
import { createSeller, TestSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';
import { createOrder, insertPlan, insertProduct, orderBody, payJson } from '../billing/fixtures';
import { csrfFrom, follow, signUp, submit, testId, webAgent } from '../identity/support/web';

jest.setTimeout(180_000);

/** Every `data-testid="<id>"` element's text on a page. */
function allTestIds(html: string, id: string): string[] {
  return [...html.matchAll(new RegExp(`data-testid="${id}"[^>]*>([^<]*)<`, 'g'))].map((m) => m[1].trim());
}

/**
 * The dashboard's forms and lists as a seller meets them: one message per problem (a field left
 * empty is `<field> is required.`, a malformed value only its type's message), money with a decimal
 * comma, ISO 4217 currencies, post/redirect/get after every form whose address is no page, pages
 * that show the record as it is now, lists that never show the wrong count, and a way back from
 * every error page.
 */
describe('dashboard: forms and pages', () => {
  let t: TestApp;
  let seller: TestSeller;
  let agent: TestAgent;

  beforeAll(async () => {
    t = await createTestApp();
    seller = await createSeller(t);
    agent = webAgent(t);
    expect(
      (await submit(agent, '/web/login', '/web/login', { email: seller.email, password: seller.password })).status,
    ).toBe(303);
  });
  afterAll(() => t.close());

  const apiProduct = async (body: Record<string, unknown>) =>
    (await t.http.post('/v1/products').set(seller.auth).send(body).expect(201)).body.product;

  describe('a missing field is one message, a malformed one its type message alone', () => {
    it('plan form: an empty price is `price is required.`; text is the type message without range rules', async () => {
      const club = await apiProduct({ name: 'Club', type: 'recurring' });
      const page = `/web/products/${club.pid}/plans`;
      const empty = await submit(agent, page, page, { name: 'Monthly', price: '', interval: 'month' });
      expect(empty.status).toBe(422);
      expect(allTestIds(empty.text, 'error-price')).toEqual(['price is required.']);
      const text = await submit(agent, page, page, { name: 'Monthly', price: 'abc', interval: 'month' });
      expect(allTestIds(text.text, 'error-price')).toEqual(['price must be a number.']);
    });

    it('product form: price `abc` is the type message alone; an edit form emptied of its name says it is required', async () => {
      const created = await submit(agent, '/web/products/new', '/web/products/new', { name: 'Guide', price: 'abc' });
      expect(created.status).toBe(422);
      expect(allTestIds(created.text, 'error-price')).toEqual(['price must be a number.']);
      const product = await apiProduct({ name: 'Kept name' });
      const page = `/web/products/${product.pid}`;
      const edited = await submit(agent, page, page, { name: '', type: 'one_time' });
      expect(edited.status).toBe(422);
      expect(allTestIds(edited.text, 'error-name')).toEqual(['name is required.']);
      const api = await t.http.get(`/v1/products/${product.pid}`).set(seller.auth).expect(200);
      expect(api.body.product.name).toBe('Kept name');
    });

    it('discount form: an empty value is `value is required.`', async () => {
      const res = await submit(agent, '/web/discounts/new', '/web/discounts/new', {
        code: 'EMPTY1',
        type: 'fixed',
        value: '',
        status: 'active',
      });
      expect(res.status).toBe(422);
      expect(allTestIds(res.text, 'error-value')).toEqual(['value is required.']);
    });

    it('webhook forms: an empty URL is `url is required.`, on registration and on edit', async () => {
      const created = await submit(agent, '/web/webhooks', '/web/webhooks', { url: '', events: 'order_approved' });
      expect(created.status).toBe(422);
      expect(created.text).toContain('<p class="field-error">url is required.</p>');
      expect(created.text).not.toContain('must be a valid http(s) URL');
      const hook = (
        await t.http
          .post('/v1/webhooks')
          .set(seller.auth)
          .send({ url: 'https://example.com/hook', events: ['order_approved'] })
          .expect(201)
      ).body.webhook;
      const page = `/web/webhooks/${hook.id}`;
      const edited = await submit(agent, page, page, { url: '', events: 'order_approved', status: 'active' });
      expect(edited.status).toBe(422);
      expect(edited.text).toContain('<p class="field-error">url is required.</p>');
    });

    it('sign-up: an empty field is `<label> is required.`, nothing else', async () => {
      const res = await submit(webAgent(t), '/web/signup', '/web/signup', {
        name: '',
        email: '',
        password: '',
        store_name: '',
        currency: '',
      });
      expect(res.status).toBe(422);
      expect(testId(res.text, 'error-name')).toBe('Your name is required.');
      expect(testId(res.text, 'error-email')).toBe('Email is required.');
      expect(testId(res.text, 'error-password')).toBe('Password is required.');
      expect(testId(res.text, 'error-store_name')).toBe('Store name is required.');
      // Empty is the default, MZN.
      expect(res.text).not.toContain('data-testid="error-currency"');
    });
  });

  describe('money with a decimal comma', () => {
    it('a product price, a plan price and a fixed discount typed 150,50 are 150.50', async () => {
      const created = await submit(agent, '/web/products/new', '/web/products/new', {
        name: 'Curso',
        type: 'recurring',
        price: '150,50',
      });
      expect(created.status).toBe(303);
      const pid = /\/products\/([\w-]+)\?created=1/.exec(created.headers.location)![1];
      expect((await t.http.get(`/v1/products/${pid}`).set(seller.auth).expect(200)).body.product.price).toBe(150.5);

      const plans = `/web/products/${pid}/plans`;
      expect((await submit(agent, plans, plans, { name: 'Mensal', price: '99,9', interval: 'month' })).status).toBe(
        303,
      );
      const plan = (await t.http.get('/v1/plans').set(seller.auth).expect(200)).body.plans.find(
        (p: { product_pid: string }) => p.product_pid === pid,
      );
      expect(plan.price).toBe(99.9);

      const discount = await submit(agent, '/web/discounts/new', '/web/discounts/new', {
        code: 'COMMA10',
        type: 'fixed',
        value: '10,25',
        status: 'active',
      });
      expect(discount.status).toBe(303);
      expect((await t.http.get('/v1/discounts/COMMA10').set(seller.auth).expect(200)).body.discount.value).toBe(10.25);
    });

    it('1.234,50 (a thousands separator) is one clear message, not a guess', async () => {
      const res = await submit(agent, '/web/products/new', '/web/products/new', { name: 'Curso', price: '1.234,50' });
      expect(res.status).toBe(422);
      expect(allTestIds(res.text, 'error-price')).toEqual([
        'price must be a number with at most two decimals and no thousands separator, for example 1234.50 or 1234,50.',
      ]);
    });
  });

  describe('currencies are ISO 4217 codes', () => {
    it('sign-up refuses zzz with one message, and takes usd as USD', async () => {
      const refused = await submit(webAgent(t), '/web/signup', '/web/signup', {
        name: 'Ana',
        email: `zzz-${Date.now()}@example.com`,
        password: 'a long enough password',
        store_name: 'Ana Books',
        currency: 'zzz',
      });
      expect(refused.status).toBe(422);
      expect(allTestIds(refused.text, 'error-currency')).toEqual([
        'Currency must be an ISO 4217 code, for example MZN, USD or EUR.',
      ]);
      const fresh = webAgent(t);
      const { email } = await signUp(fresh, { currency: 'usd' });
      const [store] = await t.dataSource.query(
        `SELECT st.currency FROM stores st JOIN sellers s ON s.id = st.seller_id WHERE s.email = $1 AND st.live_store_id IS NULL`,
        [email],
      );
      expect(store.currency).toBe('USD');
    });

    it('Settings → Store refuses ZZZ; a store made before the rule keeps its code while it does not change it', async () => {
      const page = '/web/settings/store';
      const base = { name: 'Loja', brand: 'Loja', contact_number: '', logo_url: '' };
      const refused = await submit(agent, page, page, { ...base, currency: 'zzz' });
      expect(refused.status).toBe(422);
      expect(allTestIds(refused.text, 'error-currency')).toEqual([
        'currency must be an ISO 4217 code, for example MZN, USD or EUR.',
      ]);
      const legacy = await createSeller(t);
      await t.dataSource.query(`UPDATE stores SET currency = 'XYZ' WHERE id = $1 OR live_store_id = $1`, [
        legacy.storeId,
      ]);
      const legacyAgent = webAgent(t);
      await submit(legacyAgent, '/web/login', '/web/login', { email: legacy.email, password: legacy.password });
      const saved = await submit(legacyAgent, page, page, { ...base, name: 'Renamed', currency: 'XYZ' });
      expect(saved.status).toBe(303);
      const [row] = await t.dataSource.query(`SELECT name, currency FROM stores WHERE id = $1`, [legacy.storeId]);
      expect(row).toEqual({ name: 'Renamed', currency: 'XYZ' });
    });
  });

  describe('post/redirect/get', () => {
    const keyCount = async () =>
      (await t.dataSource.query(`SELECT count(*)::int AS n FROM api_keys WHERE seller_id = $1`, [seller.sellerId]))[0]
        .n;

    it('a new API key: 303 to the list, which shows the token once; reloading makes no second key', async () => {
      const before = await keyCount();
      const posted = await submit(agent, '/web/settings/api', '/web/settings/api/keys', {
        name: 'Reload-safe',
        scopes: 'user.read',
      });
      expect(posted.status).toBe(303);
      expect(posted.headers.location).toBe('/web/settings/api');
      const shown = await follow(agent, posted);
      expect(testId(shown.text, 'api-key-token')).toMatch(/^sk_/);
      const reloaded = await agent.get('/web/settings/api').expect(200);
      expect(reloaded.text).not.toContain('data-testid="api-key-token"');
      expect(await keyCount()).toBe(before + 1);
    });

    it('a new OAuth app and a rotated secret: 303 to the list, the secret shown once', async () => {
      const posted = await submit(agent, '/web/apps', '/web/apps', {
        name: 'Reload app',
        redirect_uris: 'https://app.example.com/cb',
      });
      expect(posted.status).toBe(303);
      const shown = await follow(agent, posted);
      const secret = testId(shown.text, 'client-secret');
      expect((await agent.get('/web/apps').expect(200)).text).not.toContain(secret);
      const apps = await t.dataSource.query(`SELECT id FROM oauth_apps WHERE name = 'Reload app'`);
      expect(apps).toHaveLength(1);
      const rotated = await submit(agent, '/web/apps', `/web/apps/${apps[0].id}/rotate-secret`, {});
      expect(rotated.status).toBe(303);
      const newSecret = testId((await follow(agent, rotated)).text, 'client-secret');
      expect(newSecret).not.toBe(secret);
      expect((await agent.get('/web/apps').expect(200)).text).not.toContain(newSecret);
    });

    it('"Upload" without a file goes back to the product page with the message, once', async () => {
      const product = await apiProduct({ name: 'Ebook' });
      const page = `/web/products/${product.pid}`;
      const csrf = csrfFrom((await agent.get(page).expect(200)).text);
      const posted = await agent
        .post(`${page}/files?_csrf=${encodeURIComponent(csrf)}`)
        .field('name', '')
        .expect(303);
      expect(posted.headers.location).toBe(`${page}#files`);
      expect(testId((await follow(agent, posted)).text, 'error-file')).toBe('Choose a file to upload.');
      expect((await agent.get(page).expect(200)).text).not.toContain('data-testid="error-file"');
    });

    it('a refused "Publish" goes back to the product page, which names what is missing', async () => {
      const product = await apiProduct({ name: 'Draft' });
      const page = `/web/products/${product.pid}`;
      const posted = await submit(agent, page, `${page}/publish`, {});
      expect(posted.status).toBe(303);
      expect(posted.headers.location).toBe(page);
      const shown = await follow(agent, posted);
      expect(testId(shown.text, 'publish-error')).toContain('Product is missing required data.');
      expect(testId(shown.text, 'missing-files')).toBe('The product needs at least one file.');
    });
  });

  describe('pages that show the record as it is now', () => {
    it('the refund page of a refunded order offers no refund; a refused refund links back to the order', async () => {
      const product = await insertProduct(t, seller.storeId, { name: 'Refundable', price: '150.00' });
      const order = await createOrder(t, seller, orderBody(product.pid));
      await payJson(t, order.pay_token, { payment_method: 'mpesa', payment_number: '841234567' }).expect(200);
      const confirm = `/web/orders/${order.order_number}/refund`;
      const csrf = csrfFrom((await agent.get(confirm).expect(200)).text);
      expect((await agent.post(confirm).type('form').send({ _csrf: csrf })).status).toBe(303);

      // Back to the confirmation page: it says the order is refunded, with no button to refund it.
      const again = await agent.get(confirm).expect(409);
      expect(again.text).not.toContain('data-testid="confirm"');
      expect(testId(again.text, 'error-message')).toBe(
        `Only approved orders can be refunded. Order ${order.order_number} is refunded.`,
      );
      expect(again.text).toContain(`href="/web/orders/${order.order_number}" data-testid="back-link"`);
      // The form of that page posted again: refused, with the way back to the order.
      const refused = await agent.post(confirm).type('form').send({ _csrf: csrf }).expect(409);
      expect(testId(refused.text, 'back-link')).toBe(`Back to order ${order.order_number}`);
    });
  });

  describe('lists never show the wrong count', () => {
    it.each(['-1', 'abc', '0'])(
      '?page=%s shows the first page and says so, on every list with a pager',
      async (asked) => {
        const product = await insertProduct(t, seller.storeId, { name: `Listed ${asked}` });
        await createOrder(t, seller, orderBody(product.pid));
        // The review queue is an operator's (identity's README, *Operators*).
        await t.dataSource.query(`UPDATE sellers SET operator = true WHERE id = $1`, [seller.sellerId]);
        for (const list of ['orders', 'products', 'discounts', 'customers', 'subscriptions', 'review']) {
          const res = await agent.get(`/web/${list}?page=${asked}`).expect(200);
          expect([list, testId(res.text, 'page-notice')]).toEqual([
            list,
            `There is no page “${asked}”: page numbers start at 1. This is page 1.`,
          ]);
          expect(res.text).not.toMatch(/No (orders|products|customers) yet/);
        }
        const orders = await agent.get(`/web/orders?page=${asked}`).expect(200);
        expect(orders.text).toContain('data-testid="order-row"');
        expect(orders.text).not.toContain('data-testid="filter-error"');
      },
    );

    it('a refused order filter lists nothing and says so, never "No orders yet."', async () => {
      const res = await agent.get('/web/orders?status=bogus').expect(200);
      expect(res.text).toContain('data-testid="filter-error"');
      expect(res.text).toContain('data-testid="filter-refused"');
      expect(res.text).not.toContain('data-testid="no-orders"');
    });
  });

  it('a failed webhook test event is shown as an error (the red style), not as a notice', async () => {
    const hook = (
      await t.http
        .post('/v1/webhooks')
        .set(seller.auth)
        .send({ url: 'http://127.0.0.1:1/nobody-listens', events: ['order_approved'] })
        .expect(201)
    ).body.webhook;
    const page = `/web/webhooks/${hook.id}`;
    const shown = await follow(agent, await submit(agent, page, `${page}/test`, {}));
    expect(shown.text).toMatch(
      /<div class="error" role="alert" data-testid="test-failed">Test event failed \(no response\)/,
    );
    expect(shown.text).not.toContain('data-testid="notice"');
  });

  describe('the discount expiry is a date', () => {
    it('2027-12-31 means the end of that day in UTC; saving the same date again keeps a time the API set', async () => {
      const res = await submit(agent, '/web/discounts/new', '/web/discounts/new', {
        code: 'DATED',
        type: 'percent',
        value: '10',
        status: 'active',
        expires_at: '2099-12-31',
      });
      expect(res.status).toBe(303);
      const dated = (await t.http.get('/v1/discounts/DATED').set(seller.auth).expect(200)).body.discount;
      expect(dated.expires_at).toBe('2099-12-31T23:59:59.000000Z');

      await t.http.patch(`/v1/discounts/${dated.id}`).set(seller.auth).send({ expires_at: '2099-06-15T12:30:00Z' });
      const page = `/web/discounts/${dated.id}`;
      const shown = await agent.get(page).expect(200);
      expect(shown.text).toMatch(/<input id="expires_at" name="expires_at" type="date" value="2099-06-15"/);
      const resaved = await submit(agent, page, page, {
        code: 'DATED',
        type: 'percent',
        value: '15',
        status: 'active',
        expires_at: '2099-06-15',
      });
      expect(resaved.status).toBe(303);
      const kept = (await t.http.get('/v1/discounts/DATED').set(seller.auth).expect(200)).body.discount;
      expect(kept).toMatchObject({ value: 15, expires_at: '2099-06-15T12:30:00.000000Z' });

      const bad = await submit(agent, page, page, {
        code: 'DATED',
        type: 'percent',
        value: '15',
        expires_at: '2099-02-30',
      });
      expect(allTestIds(bad.text, 'error-expires_at')).toEqual(['expires_at must be a date, for example 2027-12-31.']);
    });

    it('the list says a coupon past its expiry is expired beside its status', async () => {
      await t.dataSource.query(
        `UPDATE discounts SET expires_at = now() - interval '1 day' WHERE store_id = $1 AND code = 'DATED'`,
        [seller.storeId],
      );
      const list = (await agent.get('/web/discounts').expect(200)).text;
      const row =
        /data-code="DATED"[\s\S]*?data-testid="discount-status">([^<]*)<span class="muted">\(expired\)<\/span>/.exec(
          list,
        );
      expect(row?.[1].trim()).toBe('active');
    });
  });

  describe('test mode and the way back', () => {
    it('switching on a detail page lands on its list; a record of the other mode is a 404 with a link back', async () => {
      const club = await insertProduct(t, seller.storeId, { name: 'Club', type: 'recurring', price: null });
      const plan = await insertPlan(t, seller.storeId, club.id);
      const order = await createOrder(t, seller, orderBody(club.pid, { amount: 300, plan_id: plan.planId }));
      await payJson(t, order.pay_token, { payment_method: 'mpesa', payment_number: '841234567' }).expect(200);
      const id = (await t.http.get(`/v1/orders/${order.order_number}`).set(seller.auth).expect(200)).body.order
        .subscription.id;
      const detail = `/web/subscriptions/${id}`;
      // The confirmation names the end of the period as the dashboard shows dates, not the API's timestamp.
      const confirm = (await agent.get(`${detail}/cancel`).expect(200)).text;
      expect(confirm).toMatch(/It stays active until \d{1,2} [A-Z][a-z]{2} \d{4}[^<]* UTC and is not renewed\./);
      expect(confirm).not.toMatch(/until \d{4}-\d{2}-\d{2}T/);

      const on = await submit(agent, detail, '/web/test-mode', { test: 'on', next: detail });
      expect(on.status).toBe(303);
      expect(on.headers.location).toBe('/web/subscriptions');
      await agent.get('/web/subscriptions').expect(200);

      const missing = await agent.get(detail).expect(404);
      expect(testId(missing.text, 'back-link')).toBe('Back to Subscriptions');
      expect(missing.text).toContain('href="/web/subscriptions" data-testid="back-link"');
      expect(testId(missing.text, 'error-hint')).toContain('Test mode is on');

      const off = await submit(agent, '/web/orders', '/web/test-mode', {
        test: 'off',
        next: `/web/orders/${order.order_number}`,
      });
      expect(off.headers.location).toBe('/web/orders');
      // A foreign product's page links back to Products.
      const other = await insertProduct(t, (await createSeller(t)).storeId, { name: 'Not yours' });
      const foreign = await agent.get(`/web/products/${other.pid}`).expect(404);
      expect(foreign.text).toContain('href="/web/products" data-testid="back-link"');
    });
  });
});
