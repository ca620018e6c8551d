import TestAgent from 'supertest/lib/agent';
import { StoreModes } from '../../../src/modules/identity';
import { createSeller, TestSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';
import { insertDiscount, insertPlan, insertProduct, pathOf } from '../billing/fixtures';
import { submit, webAgent } from '../identity/support/web';

const BUYER = { name: 'Ana Macuácua', email: 'ana@example.com', mobile_number: '+258841234567' };

/** Buy links (README, *Buy links*): a product's public page that makes a checkout session from the buyer's details. */
describe('buy links', () => {
  let t: TestApp;
  let seller: TestSeller;
  let product: { id: number; pid: string; name: string };

  beforeAll(async () => {
    t = await createTestApp();
    seller = await createSeller(t, { brand: 'Loja Aurora' });
    product = await insertProduct(t, seller.storeId, { name: 'Curso de Fotografia', price: '150.00' });
    await approve(product.id);
  });
  afterAll(() => t.close());

  const approve = (id: number) => t.dataSource.query(`UPDATE products SET status_2 = 'approved' WHERE id = $1`, [id]);
  const buy = (pid: string, form: Record<string, string>) => t.http.post(`/pay/buy/${pid}`).type('form').send(form);
  const ordersOf = async (storeId: number): Promise<number> =>
    Number((await t.dataSource.query(`SELECT count(*) AS n FROM orders WHERE store_id = $1`, [storeId]))[0].n);
  const orderOfCheckout = async (location: string) => {
    const token = location.split('/token/')[1];
    const json = await t.http.get(`/pay/token/${token}/status`).set('Accept', 'application/json').expect(200);
    return (await t.http.get(`/v1/orders/${json.body.order_number}`).set(seller.auth).expect(200)).body.order;
  };

  it('shows the product, its price and the form, as a customer page', async () => {
    const res = await t.http.get(`/pay/buy/${product.pid}`).expect(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.text).toContain('data-testid="product-name">Curso de Fotografia</h1>');
    expect(res.text).toContain('data-testid="brand">Loja Aurora</span>');
    expect(res.text).toContain('data-testid="price">150.00 MZN</span>');
    expect(res.text).toContain(`action="${t.config.urls.pay}/buy/${product.pid}"`);
    for (const field of ['name', 'email', 'mobile_number', 'coupon_code'])
      expect(res.text).toContain(`name="${field}"`);
  });

  it('makes the order as POST /v1/orders does and sends the buyer to its checkout (303), campaign included', async () => {
    const page = await t.http.get(`/pay/buy/${product.pid}?utm_source=instagram&utm_campaign=launch`).expect(200);
    expect(page.text).toContain('<input type="hidden" name="utm_source" value="instagram">');
    const res = await buy(product.pid, { ...BUYER, utm_source: 'instagram', utm_campaign: 'launch' }).expect(303);
    expect(res.headers.location).toMatch(new RegExp(`^${t.config.urls.pay}/token/[0-9A-Za-z]{32}$`));
    const order = await orderOfCheckout(res.headers.location);
    expect(order).toMatchObject({
      status: 'pending',
      amount: 150,
      product: { pid: product.pid },
      customer: { name: BUYER.name, email: BUYER.email, mobile_number: BUYER.mobile_number },
      tracking: { utm_source: 'instagram', utm_campaign: 'launch' },
    });
    // The checkout it leads to is the hosted checkout of that order.
    const checkout = await t.http.get(pathOf(res.headers.location)).expect(200);
    expect(checkout.text).toContain('>Pay now</button>');
  });

  it('422 with each field’s error in the buyer’s words, the form kept, and no order made', async () => {
    const before = await ordersOf(seller.storeId);
    const res = await buy(product.pid, { name: '  ', email: 'ana@', mobile_number: '841234567', coupon_code: '' });
    expect(res.status).toBe(422);
    expect(res.text).toContain('Enter your name.');
    expect(res.text).toContain('Enter a valid email address (for example ana@example.com).');
    expect(res.text).toContain('starting with + (for example +258841234567)');
    expect(res.text).toContain('name="email" autocomplete="email" maxlength="255" required value="ana@"');
    expect(await ordersOf(seller.storeId)).toBe(before);
    const empty = await buy(product.pid, {}).expect(422);
    expect(empty.text).toContain('Enter your name.');
  });

  it('applies a coupon, and refuses one that cannot be used with its own message', async () => {
    await insertDiscount(t, seller.storeId, { code: 'LINK10', type: 'fixed', value: '10.00' });
    const before = await ordersOf(seller.storeId);
    const refused = await buy(product.pid, { ...BUYER, coupon_code: 'NOPE' }).expect(422);
    expect(refused.text).toContain('Coupon code is invalid.');
    expect(refused.text).toContain('value="NOPE"');
    expect(await ordersOf(seller.storeId)).toBe(before);
    const page = await t.http.get(`/pay/buy/${product.pid}?coupon=LINK10`).expect(200);
    expect(page.text).toContain('name="coupon_code" autocomplete="off" maxlength="64" value="LINK10"');
    const res = await buy(product.pid, { ...BUYER, coupon_code: 'LINK10' }).expect(303);
    expect(await orderOfCheckout(res.headers.location)).toMatchObject({ amount: 140, coupon_code: 'LINK10' });
  });

  it('a recurring product offers its plans, cheapest first, and charges the one chosen', async () => {
    const club = await insertProduct(t, seller.storeId, { name: 'Clube', type: 'recurring', price: null });
    await approve(club.id);
    const yearly = await insertPlan(t, seller.storeId, club.id, { name: 'Yearly', price: '900.00', interval: 'year' });
    const monthly = await insertPlan(t, seller.storeId, club.id, { name: 'Monthly', price: '90.00' });
    const page = await t.http.get(`/pay/buy/${club.pid}`).expect(200);
    expect(page.text.indexOf(monthly.planId)).toBeLessThan(page.text.indexOf(yearly.planId));
    expect(page.text).toContain(`value="${monthly.planId}" checked`);
    const res = await buy(club.pid, { ...BUYER, plan_id: yearly.planId }).expect(303);
    expect(await orderOfCheckout(res.headers.location)).toMatchObject({
      amount: 900,
      plan: { plan_id: yearly.planId },
    });
    // A plan of no choice offered (another product's, or made up) is no choice.
    const other = await buy(club.pid, { ...BUYER, plan_id: 'plan_elsewhere' }).expect(422);
    expect(other.text).toContain('Choose a plan.');
  });

  it('404 for an unknown product, a live product review has not approved, and a recurring product without plans', async () => {
    const draft = await insertProduct(t, seller.storeId, { name: 'Rascunho' });
    const planless = await insertProduct(t, seller.storeId, { type: 'recurring', price: null });
    await approve(planless.id);
    // Priced under the order minimum (10): no order could be made for it.
    const cheap = await insertProduct(t, seller.storeId, { price: '5.00' });
    await approve(cheap.id);
    const cheapPlans = await insertProduct(t, seller.storeId, { type: 'recurring', price: null });
    await approve(cheapPlans.id);
    await insertPlan(t, seller.storeId, cheapPlans.id, { price: '5.00' });
    for (const pid of ['prd_unknown', draft.pid, planless.pid, cheap.pid, cheapPlans.pid]) {
      const res = await t.http.get(`/pay/buy/${pid}`).expect(404);
      expect(res.text).toContain('This link is not valid');
      await buy(pid, BUYER).expect(404);
    }
    const before = await ordersOf(seller.storeId);
    expect(before).toBeGreaterThan(0);
    await buy(draft.pid, BUYER).expect(404);
    expect(await ordersOf(seller.storeId)).toBe(before);
  });

  it('a test store’s product sells through its link before review, as a test order', async () => {
    const testStore = await t.app.get(StoreModes).storeFor(seller.storeId, 'test');
    const draft = await insertProduct(t, testStore.id, { name: 'Teste', price: '20.00' });
    const page = await t.http.get(`/pay/buy/${draft.pid}`).expect(200);
    expect(page.text).toContain('data-testid="test-mode">Test payment: no money moves');
    const before = await ordersOf(testStore.id);
    await buy(draft.pid, BUYER).expect(303);
    expect(await ordersOf(testStore.id)).toBe(before + 1);
  });

  it('a NUL anywhere is a field left empty, answered beside its field with the form kept; the link’s junk is ignored', async () => {
    const page = await t.http.get(`/pay/buy/${product.pid}?fbclid=%00&utm_source=a%00b&coupon=%00`).expect(200);
    expect(page.text).not.toContain('name="utm_source"');
    const before = await ordersOf(seller.storeId);
    const res = await buy(product.pid, { ...BUYER, name: 'Ana\u0000', coupon_code: 'X\u0000' }).expect(422);
    expect(res.text).toContain('Enter your name.');
    expect(res.text).toContain(`value="${BUYER.email}"`);
    expect(await ordersOf(seller.storeId)).toBe(before);
  });

  it('takes a mobile number as people write it, and says what is wrong in words', async () => {
    const spaced = await buy(product.pid, { ...BUYER, mobile_number: '+258 84-123 4567' }).expect(303);
    expect((await orderOfCheckout(spaced.headers.location)).customer.mobile_number).toBe('+258841234567');
    const long = await buy(product.pid, { ...BUYER, name: 'N'.repeat(300), coupon_code: 'C'.repeat(80) }).expect(422);
    expect(long.text).toContain('Your name can be at most 255 characters.');
    expect(long.text).toContain('Enter the coupon code as you received it.');
  });

  it('a plan the link names that the product does not offer leaves the cheapest chosen', async () => {
    const club = await insertProduct(t, seller.storeId, { name: 'Clube 2', type: 'recurring', price: null });
    await approve(club.id);
    const monthly = await insertPlan(t, seller.storeId, club.id, { name: 'Monthly', price: '90.00' });
    const page = await t.http.get(`/pay/buy/${club.pid}?plan=plan_elsewhere`).expect(200);
    expect(page.text).toContain(`value="${monthly.planId}" checked`);
  });

  it('the dashboard’s product page shows the link, open once approved', async () => {
    const agent: TestAgent = webAgent(t);
    await submit(agent, '/web/login', '/web/login', { email: seller.email, password: seller.password });
    const approved = (await agent.get(`/web/products/${product.pid}`).expect(200)).text;
    expect(approved).toContain(
      `<a class="mono" href="${t.config.urls.pay}/buy/${product.pid}" target="_blank" rel="noopener">`,
    );
    const draft = await insertProduct(t, seller.storeId, { name: 'Ainda não' });
    const waiting = (await agent.get(`/web/products/${draft.pid}`).expect(200)).text;
    expect(waiting).toContain('Opens once review approves the product.');
    expect(waiting).not.toContain(`href="${t.config.urls.pay}/buy/${draft.pid}"`);
    // The campaign a link carried shows on the order's page.
    const bought = await buy(product.pid, { ...BUYER, utm_source: 'instagram', utm_campaign: 'launch' }).expect(303);
    const { order_number } = await orderOfCheckout(bought.headers.location);
    const orderPage = (await agent.get(`/web/orders/${order_number}`).expect(200)).text;
    expect(orderPage).toContain('data-testid="order-campaign">source: instagram · campaign: launch<');
  });

  it('counts submissions per client IP: past the limit, 429 with its headers and no order', async () => {
    let res = await buy(product.pid, {});
    expect(res.headers['ratelimit-limit']).toBe('20');
    for (let i = 0; i < 20 && res.status !== 429; i++) res = await buy(product.pid, {});
    expect(res.status).toBe(429);
    expect(res.headers['ratelimit-remaining']).toBe('0');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    // The page again, saying how long to wait, the product and the form still there.
    expect(res.text).toMatch(
      /data-testid="buy-notice">Too many tries from your network\. Wait \d+ seconds and try again\.</,
    );
    expect(res.text).toContain('>Continue to payment</button>');
    const before = await ordersOf(seller.storeId);
    await buy(product.pid, BUYER).expect(429);
    expect(await ordersOf(seller.storeId)).toBe(before);
  });
});
