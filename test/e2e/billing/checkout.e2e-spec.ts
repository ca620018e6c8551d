import { signSandboxCallback } from '../../../src/modules/billing/payments/gateways/sandbox/sandbox.gateway';
import { createSeller, TestSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';
import {
  createOrder,
  insertAffiliate,
  insertBump,
  insertDiscount,
  insertFile,
  insertPlan,
  insertProduct,
  orderBody,
  pathOf,
  payJson,
  recordEvents,
  usedCount,
} from './fixtures';

const SECRET = 'sandbox-secret-for-tests-0123456789';
const MPESA = { payment_method: 'mpesa', payment_number: '841234567' };

describe('hosted checkout, payments and the order portal', () => {
  let t: TestApp;
  let seller: TestSeller;
  let product: { id: number; pid: string; name: string };

  beforeAll(async () => {
    t = await createTestApp({ env: { PAYMENT_SANDBOX_SECRET: SECRET } });
    seller = await createSeller(t, { brand: 'Loja Aurora' });
    product = await insertProduct(t, seller.storeId, {
      name: 'Curso de Fotografia',
      price: '150.00',
      imageUrl: 'https://img.example.com/c.png',
    });
  });
  afterAll(() => t.close());

  const order = async (ref: string) => (await t.http.get(`/v1/orders/${ref}`).set(seller.auth).expect(200)).body.order;

  it('walks create → checkout page → sandbox pay → approved, sending one complete order_approved', async () => {
    const created = await createOrder(t, seller, orderBody(product.pid, { amount: 150 }));
    const page = await t.http.get(pathOf(created.checkout_url)).expect(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.text).toContain('Loja Aurora');
    expect(page.text).toContain('Curso de Fotografia');
    expect(page.text).toContain('https://img.example.com/c.png');
    expect(page.text).toContain('150.00 MZN');
    // No external assets: the icon is inline (a data: URI), so no page requests a favicon.
    expect(page.text).not.toMatch(/<link(?! rel="icon" type="image\/svg\+xml" href="data:)|<script|src="\/\//);

    const events = recordEvents(t);
    const paid = await t.http.post(`/pay/token/${created.pay_token}/pay`).type('form').send(MPESA).expect(303);
    const approved = await order(created.order_number);
    expect(approved.status).toBe('approved');
    expect(paid.headers.location).toBe(
      // The order portal, opening with its thank-you (billing README, `checkout/`).
      `${t.config.urls.pay}/order/${created.order_number}?transaction_id=${approved.transaction_id}&thanks=1`,
    );

    expect(events).toHaveLength(1);
    expect(events[0].name).toBe('order.approved');
    expect(events[0].storeId).toBe(seller.storeId);
    expect(events[0].productId).toBe(product.id);
    expect(events[0].payload).toEqual({
      order_type: 'order_approved',
      order_number: created.order_number,
      status: 'approved',
      transaction_id: approved.transaction_id,
      payment_method: 'mpesa',
      amount: 150,
      currency: 'MZN',
      discount_amount: 0,
      coupon_code: null,
      original_amount: 150,
      tracking: { utm_source: null, utm_campaign: null, utm_medium: null, utm_content: null, utm_term: null },
      plan_subscriber: {
        plan_name: null,
        start_date: null,
        end_date: null,
        status: null,
        plan_type: null,
        plan_interval: null,
        cancelled_at: null,
        portal_url: `${t.config.urls.pay}/order/${created.order_number}?transaction_id=${approved.transaction_id}`,
      },
      product: { name: 'Curso de Fotografia', price: '150.00', pid: product.pid },
      customer: {
        email: expect.any(String),
        name: 'Ana Buyer',
        mobile_number: '+258841234567',
        payment_number: '841234567',
      },
      affiliate: [],
      order_bump: [],
      brand: 'Loja Aurora',
      image: 'https://img.example.com/c.png',
      test: false,
    });

    // Paying again changes nothing and sends nothing.
    const again = await payJson(t, created.pay_token, MPESA).expect(409);
    expect(again.body).toEqual({ status: 'error', message: 'Order is no longer pending.' });
    const againHtml = await t.http.post(`/pay/token/${created.pay_token}/pay`).type('form').send(MPESA).expect(409);
    expect(againHtml.text).toContain('approved');
    expect(events).toHaveLength(1);
  });

  it('a product without an image of its own: the payload image is the service placeholder, an SVG it serves', async () => {
    const plain = await insertProduct(t, seller.storeId, { name: 'No cover yet', imageUrl: null });
    const created = await createOrder(t, seller, orderBody(plain.pid));
    const events = recordEvents(t);
    await payJson(t, created.pay_token, MPESA).expect(200);
    const [approved] = events.filter((e) => e.payload.order_number === created.order_number);
    expect(approved.payload.image).toBe(`${t.config.urls.pay}/assets/product.svg`);
    const image = await t.http.get(new URL(approved.payload.image).pathname).expect(200);
    expect(image.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(String(image.body ?? image.text)).toContain('<svg');
  });

  it('declines a number ending in 0002: cancelled with a transaction id, order_cancelled, 303 to cancel_url', async () => {
    const created = await createOrder(
      t,
      seller,
      orderBody(product.pid, {
        cancel_url: 'https://shop.example.com/cart',
        return_url: 'https://shop.example.com/thanks',
      }),
    );
    const events = recordEvents(t);
    const res = await t.http
      .post(`/pay/token/${created.pay_token}/pay`)
      .type('form')
      .send({ payment_method: 'emola', payment_number: '861230002' })
      .expect(303);
    expect(res.headers.location).toBe('https://shop.example.com/cart');
    const cancelled = await order(created.order_number);
    expect(cancelled).toMatchObject({ status: 'cancelled', transaction_id: expect.stringMatching(/^sbx_/) });
    expect(events.map((e) => e.kind)).toEqual(['order_cancelled']);
    expect(events[0].payload).toMatchObject({
      status: 'cancelled',
      payment_method: 'emola',
      transaction_id: cancelled.transaction_id,
    });
  });

  it('approved with return_url: 303 to it; declined without cancel_url: back to the checkout page', async () => {
    const withReturn = await createOrder(
      t,
      seller,
      orderBody(product.pid, { return_url: 'http://127.0.0.1:9/thanks?x=1' }),
    );
    const ok = await t.http.post(`/pay/token/${withReturn.pay_token}/pay`).type('form').send(MPESA).expect(303);
    expect(ok.headers.location).toBe('http://127.0.0.1:9/thanks?x=1');

    const plain = await createOrder(t, seller, orderBody(product.pid));
    const declined = await t.http
      .post(`/pay/token/${plain.pay_token}/pay`)
      .type('form')
      .send({ ...MPESA, payment_number: '841110002' })
      .expect(303);
    expect(declined.headers.location).toBe(plain.checkout_url);
    const page = await t.http.get(pathOf(plain.checkout_url)).expect(200);
    expect(page.text).toContain('cancelled');
    // The reason in words, with the number that was tried.
    expect(page.text).toMatch(
      /data-testid="decline-reason">Payment declined: M-Pesa did not accept the payment from 841110002 .*No money was taken\.</,
    );
  });

  it("a checkout the customer cancelled says so, not 'declined'", async () => {
    const created = await createOrder(t, seller, orderBody(product.pid));
    await t.http.post(`/pay/token/${created.pay_token}/cancel`).expect(303);
    const page = await t.http.get(pathOf(created.checkout_url)).expect(200);
    expect(page.text).toContain('data-testid="decline-reason">You cancelled this checkout. No payment was made.<');
  });

  it('answers JSON clients with {status, order_number, order_status}', async () => {
    const created = await createOrder(
      t,
      seller,
      orderBody(product.pid, { return_url: 'https://shop.example.com/thanks' }),
    );
    const res = await payJson(t, created.pay_token, MPESA).expect(200);
    expect(res.body).toEqual({ status: 'success', order_number: created.order_number, order_status: 'approved' });
  });

  it('the cancel button cancels with a transaction id, sends order_cancelled once, and redirects', async () => {
    const created = await createOrder(
      t,
      seller,
      orderBody(product.pid, { cancel_url: 'https://shop.example.com/cart' }),
    );
    const events = recordEvents(t);
    const res = await t.http.post(`/pay/token/${created.pay_token}/cancel`).expect(303);
    expect(res.headers.location).toBe('https://shop.example.com/cart');
    const cancelled = await order(created.order_number);
    expect(cancelled).toMatchObject({
      status: 'cancelled',
      transaction_id: expect.stringMatching(/^sbx_/),
      cancelled_at: expect.any(String),
    });
    expect(events[0].payload.plan_subscriber.portal_url).toContain(`transaction_id=${cancelled.transaction_id}`);
    const again = await t.http
      .post(`/pay/token/${created.pay_token}/cancel`)
      .set('Accept', 'application/json')
      .expect(409);
    expect(again.body.message).toBe('Order is no longer pending.');
    expect(events).toHaveLength(1);

    const plain = await createOrder(t, seller, orderBody(product.pid));
    const json = await t.http
      .post(`/pay/token/${plain.pay_token}/cancel`)
      .set('Accept', 'application/json')
      .expect(200);
    expect(json.body).toEqual({ status: 'success', order_number: plain.order_number, order_status: 'cancelled' });
  });

  it('404 page for an unknown token on every checkout route', async () => {
    const page = await t.http.get('/pay/token/doesnotexist').expect(404);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    await t.http.post('/pay/token/doesnotexist/pay').type('form').send(MPESA).expect(404);
    const json = await t.http.post('/pay/token/doesnotexist/cancel').set('Accept', 'application/json').expect(404);
    expect(json.body).toEqual({ status: 'error', message: 'Resource not found.' });
  });

  it('422 for a bad payment form: JSON errors, or the page again with the message', async () => {
    const created = await createOrder(t, seller, orderBody(product.pid));
    const json = await payJson(t, created.pay_token, { payment_method: 'visa', payment_number: '12' }).expect(422);
    expect(Object.keys(json.body.errors).sort()).toEqual(['payment_method', 'payment_number']);
    const html = await t.http
      .post(`/pay/token/${created.pay_token}/pay`)
      .type('form')
      .send({ payment_method: 'mpesa', payment_number: 'abc' })
      .expect(422);
    // The customer's words on the page; the JSON answer keeps the API's field messages.
    expect(html.text).toContain('Enter the mobile number you pay with, digits only (for example 841234567).');
    expect(html.text).not.toContain('payment_number must be');
    expect(json.body.errors.payment_number).toEqual(['payment_number must be a phone number of 8 to 15 digits.']);
    expect((await order(created.order_number)).status).toBe('pending');
  });

  it('a missing field of the pay form is "<field> is required." in JSON, the customer\'s words on the page', async () => {
    const created = await createOrder(t, seller, orderBody(product.pid));
    const noMethod = await payJson(t, created.pay_token, { payment_number: '841234567' }).expect(422);
    expect(noMethod.body).toEqual({
      status: 'error',
      message: 'Validation failed.',
      errors: { payment_method: ['payment_method is required.'] },
    });
    for (const empty of [
      {},
      { payment_method: '', payment_number: '' },
      { payment_method: null, payment_number: null },
    ])
      expect((await payJson(t, created.pay_token, empty).expect(422)).body.errors).toEqual({
        payment_method: ['payment_method is required.'],
        payment_number: ['payment_number is required.'],
      });
    // A method every gateway needs a number for: the number alone is missing.
    const noNumber = await payJson(t, created.pay_token, { payment_method: 'mpesa' }).expect(422);
    expect(noNumber.body.errors).toEqual({ payment_number: ['payment_number is required.'] });
    // Given, the other rules.
    const wrong = await payJson(t, created.pay_token, { payment_method: 'visa', payment_number: '841234567' });
    expect(wrong.body.errors).toEqual({ payment_method: ['payment_method must be one of: mpesa, emola.'] });
    // Of the wrong type: only the type each must be.
    const typed = await payJson(t, created.pay_token, { payment_method: 5, payment_number: 841234567 }).expect(422);
    expect(typed.body.errors).toEqual({
      payment_method: ['payment_method must be a string.'],
      payment_number: ['payment_number must be a string.'],
    });

    // The form without a method: the page again, naming the methods it offers.
    const html = await t.http
      .post(`/pay/token/${created.pay_token}/pay`)
      .type('form')
      .send({ payment_number: '841234567' })
      .expect(422);
    expect(html.headers['content-type']).toMatch(/text\/html/);
    expect(html.text).toContain('<p class="error">Choose how you want to pay: M-Pesa or e-Mola.</p>');
    expect(html.text).not.toContain('is required');
    expect(html.text).toContain('value="841234567"');
    expect((await order(created.order_number)).status).toBe('pending');
  });

  it('two simultaneous confirmations charge once and send exactly one event', async () => {
    const created = await createOrder(t, seller, orderBody(product.pid));
    const events = recordEvents(t);
    const results = await Promise.all(Array.from({ length: 5 }, () => payJson(t, created.pay_token, MPESA)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    expect(events.filter((e) => e.payload.order_number === created.order_number)).toHaveLength(1);
  });

  it('a burst of payments (applied together, README *Taking payments*): each order once, a decline among them its own', async () => {
    const orders = await Promise.all(Array.from({ length: 12 }, () => createOrder(t, seller, orderBody(product.pid))));
    const events = recordEvents(t);
    const declined = orders[5];
    const twice = orders[7];
    const results = await Promise.all([
      ...orders.map((o) => payJson(t, o.pay_token, o === declined ? { ...MPESA, payment_number: '841230002' } : MPESA)),
      payJson(t, twice.pay_token, MPESA),
    ]);
    // The second press of one order meets its attempt in progress (409) or the order approved.
    expect(results.filter((r) => r.status === 200)).toHaveLength(12);
    expect(results.filter((r) => r.status !== 200).map((r) => r.status)).toEqual([409]);
    for (const o of orders) {
      const shown = await order(o.order_number);
      expect(shown.status).toBe(o === declined ? 'cancelled' : 'approved');
      const attempts = await t.dataSource.query(
        `SELECT a.status FROM payment_attempts a JOIN orders o ON o.id = a.order_id WHERE o.order_number = $1`,
        [o.order_number],
      );
      expect(attempts).toEqual([{ status: o === declined ? 'failed' : 'succeeded' }]);
      const kinds = events.filter((e) => e.payload.order_number === o.order_number).map((e) => e.payload.order_type);
      expect(kinds).toEqual([o === declined ? 'order_cancelled' : 'order_approved']);
    }
  });

  it('order bumps: shown with their price, accepted ones add to the charge, the payload and the portal files', async () => {
    const ebook = await insertProduct(t, seller.storeId, { name: 'Presets Lightroom' });
    const album = await insertProduct(t, seller.storeId, { name: 'Album' });
    const presetsBump = await insertBump(t, seller.storeId, product.id, ebook.id, '25.50');
    await insertBump(t, seller.storeId, product.id, album.id, '40.00');
    await insertFile(t, seller.storeId, product.id, { name: 'Aula 1.pdf', storageKey: 'k/abc123' });
    await insertFile(t, seller.storeId, ebook.id, {
      name: 'Presets',
      externalUrl: 'https://files.example.com/presets.zip',
    });
    await insertFile(t, seller.storeId, album.id, { name: 'Album.zip', storageKey: 'k/album' });

    const created = await createOrder(t, seller, orderBody(product.pid, { amount: 150 }));
    const page = await t.http.get(pathOf(created.checkout_url)).expect(200);
    expect(page.text).toContain('Presets Lightroom');
    expect(page.text).toContain('+25.50 MZN');
    expect(page.text).toContain(`value="${presetsBump}"`);

    const events = recordEvents(t);
    await t.http
      .post(`/pay/token/${created.pay_token}/pay`)
      .type('form')
      .send(`payment_method=mpesa&payment_number=841234567&bumps=${presetsBump}`)
      .expect(303);
    const paid = await order(created.order_number);
    expect(paid).toMatchObject({
      amount: 175.5,
      original_amount: 175.5,
      order_bump: [{ product_pid: ebook.pid, name: 'Presets Lightroom', price: 25.5 }],
    });
    expect(events[0].payload).toMatchObject({
      amount: 175.5,
      original_amount: 175.5,
      product: { price: '150.00' },
      order_bump: [{ product_pid: ebook.pid, name: 'Presets Lightroom', price: 25.5 }],
    });

    const portal = await t.http
      .get(`/pay/order/${created.order_number}?transaction_id=${paid.transaction_id}`)
      .expect(200);
    // decisions §16: a signed download link of the pay surface, never the file's `{cdn_url}` address.
    expect(portal.text).toMatch(new RegExp(`href="${t.config.urls.pay}/download/[A-Za-z0-9_-]{38}"[^>]*>Aula 1.pdf<`));
    expect(portal.text).not.toContain(t.config.urls.cdn);
    expect(portal.text).toContain('https://files.example.com/presets.zip');
    expect(portal.text).not.toContain('k/album');

    const other = await createOrder(t, seller, orderBody(product.pid));
    const bad = await payJson(t, other.pay_token, { ...MPESA, bumps: [999999] }).expect(422);
    expect(bad.body.errors).toEqual({ bumps: ['Unknown order bump.'] });

    // The largest amount an order holds, plus an add-on: refused on the add-on, nothing written.
    const largest = await createOrder(t, seller, orderBody(product.pid, { amount: 9999999999.99 }));
    const over = await payJson(t, largest.pay_token, { ...MPESA, bumps: [presetsBump] }).expect(422);
    expect(over.body).toEqual({
      status: 'error',
      message: 'Validation failed.',
      errors: { bumps: ['With these order bumps the total would be over 9999999999.99.'] },
    });
    const untouched = await t.http.get(`/v1/orders/${largest.order_number}`).set(seller.auth).expect(200);
    expect(untouched.body.order).toMatchObject({ amount: 9999999999.99, status: 'pending', payments: [] });
  });

  it('utm_* of the checkout link land on the tracking and the payload; the request tracking is kept', async () => {
    const created = await createOrder(
      t,
      seller,
      orderBody(product.pid, { tracking: { utm_source: 'newsletter', utm_term: 'photo' } }),
    );
    await t.http
      .get(`${pathOf(created.checkout_url)}?utm_source=instagram&utm_campaign=launch&utm_medium=social`)
      .expect(200);
    const events = recordEvents(t);
    await payJson(t, created.pay_token, MPESA).expect(200);
    const expected = {
      utm_source: 'instagram',
      utm_campaign: 'launch',
      utm_medium: 'social',
      utm_content: null,
      utm_term: 'photo',
    };
    expect((await order(created.order_number)).tracking).toEqual(expected);
    expect(events[0].payload.tracking).toEqual(expected);
    // A page view after payment changes nothing.
    await t.http.get(`${pathOf(created.checkout_url)}?utm_source=late`).expect(200);
    expect((await order(created.order_number)).tracking.utm_source).toBe('instagram');
  });

  it('affiliate: commission computed exactly on approval; a foreign affiliate is 422', async () => {
    const affiliateId = await insertAffiliate(t, seller.storeId, '12.50');
    const created = await createOrder(t, seller, orderBody(product.pid, { amount: 99.99, affiliate_id: affiliateId }));
    const events = recordEvents(t);
    await payJson(t, created.pay_token, MPESA).expect(200);
    // 99.99 × 12.5% = 12.49875 → 12.50
    expect((await order(created.order_number)).affiliate).toEqual({ id: affiliateId, commission_amount: 12.5 });
    expect(events[0].payload.affiliate).toEqual([
      { id: affiliateId, name: 'Aff', email: 'aff@example.com', commission_percent: 12.5, commission_amount: 12.5 },
    ]);

    const other = await createSeller(t);
    const foreign = await insertAffiliate(t, other.storeId, '10');
    const res = await t.http
      .post('/v1/orders')
      .set(seller.auth)
      .send(orderBody(product.pid, { affiliate_id: foreign }))
      .expect(422);
    expect(res.body.errors).toEqual({ affiliate_id: ['Affiliate not found.'] });
  });

  it('coupon: applied at creation, released when the order is cancelled, taken again on reuse', async () => {
    const discountId = await insertDiscount(t, seller.storeId, {
      code: 'TENOFF',
      type: 'percent',
      value: '10',
      usesLimit: 1,
    });
    const created = await createOrder(t, seller, orderBody(product.pid, { amount: 200, coupon_code: 'tenoff' }));
    expect(await usedCount(t, discountId)).toBe(1);
    const o = await order(created.order_number);
    expect(o).toMatchObject({
      amount: 180,
      original_amount: 200,
      discount_amount: 20,
      coupon_code: 'TENOFF',
      discount: { id: discountId, code: 'TENOFF', amount: 20 },
    });

    const exhausted = await t.http
      .post('/v1/orders')
      .set(seller.auth)
      .send(orderBody(product.pid, { coupon_code: 'TENOFF' }))
      .expect(422);
    expect(exhausted.body.errors).toHaveProperty('coupon_code');

    const events = recordEvents(t);
    await t.http.post(`/pay/token/${created.pay_token}/cancel`).expect(303);
    expect(await usedCount(t, discountId)).toBe(0);
    expect(events[0].payload).toMatchObject({
      coupon_code: 'TENOFF',
      discount_amount: 20,
      amount: 180,
      original_amount: 200,
    });

    const reused = await t.http
      .post('/v1/orders')
      .set(seller.auth)
      .send(orderBody(product.pid, { from_order: created.order_number }))
      .expect(201);
    expect(await usedCount(t, discountId)).toBe(1);
    await payJson(t, reused.body.pay_token, { ...MPESA, payment_number: '841230002' }).expect(200);
    expect(await usedCount(t, discountId)).toBe(0);

    const unknown = await t.http
      .post('/v1/orders')
      .set(seller.auth)
      .send(orderBody(product.pid, { coupon_code: 'NOPE' }))
      .expect(422);
    expect(unknown.body.errors).toEqual({ coupon_code: ['Coupon code is invalid.'] });
  });

  it('recurring plan: approval starts the subscription, the portal shows it and its cancel button cancels it at period end', async () => {
    const course = await insertProduct(t, seller.storeId, { name: 'Clube', type: 'recurring', price: null });
    const plan = await insertPlan(t, seller.storeId, course.id, { name: 'Mensal', price: '300.00', interval: 'month' });
    const created = await createOrder(t, seller, orderBody(course.pid, { amount: 300, plan_id: plan.planId }));
    const events = recordEvents(t);
    await payJson(t, created.pay_token, MPESA).expect(200);
    const paid = await order(created.order_number);
    expect(paid.plan).toMatchObject({ plan_id: plan.planId, name: 'Mensal', interval: 'month' });
    expect(paid.subscription).toMatchObject({ status: 'active', cancelled_at: null });
    const ps = events[0].payload.plan_subscriber;
    expect(ps).toMatchObject({
      plan_name: 'Mensal',
      status: 'active',
      plan_type: 'recurring',
      plan_interval: 'month',
      cancelled_at: null,
    });
    expect(ps.start_date).toBe(paid.subscription.start_date);
    expect(ps.end_date).toBe(paid.subscription.end_date);
    expect(events[0].payload.product.price).toBe('300.00');

    const portalUrl = `/pay/order/${created.order_number}?transaction_id=${paid.transaction_id}`;
    const portal = await t.http.get(portalUrl).expect(200);
    expect(portal.text).toContain('Cancel subscription');
    expect(portal.text).toContain('Mensal');
    expect(portal.text).toContain(`Renews on</span><span>${paid.subscription.end_date.slice(0, 10)}`);
    await t.http.get(`/pay/order/${created.order_number}?transaction_id=wrong`).expect(404);
    await t.http.get(`/pay/order/${created.order_number}`).expect(404);
    await t.http
      .post(`/pay/order/${created.order_number}/subscription/cancel`)
      .type('form')
      .send({ transaction_id: 'wrong' })
      .expect(404);

    // Confirmed by a required checkbox: without it nothing changes.
    expect(portal.text).toMatch(/<input type="checkbox" name="confirm" value="yes" required/);
    await t.http
      .post(`/pay/order/${created.order_number}/subscription/cancel`)
      .type('form')
      .send({ transaction_id: paid.transaction_id })
      .expect(303);
    expect((await order(created.order_number)).subscription.cancelled_at).toBeNull();
    const cancel = await t.http
      .post(`/pay/order/${created.order_number}/subscription/cancel`)
      .type('form')
      .send({ transaction_id: paid.transaction_id, confirm: 'yes' })
      .expect(303);
    // Back to the portal, which confirms the cancellation.
    expect(cancel.headers.location).toBe(`${t.config.urls.pay}${portalUrl.slice('/pay'.length)}&cancelled=1`);
    expect((await t.http.get(pathOf(cancel.headers.location)).expect(200)).text).toMatch(
      /data-testid="cancel-confirmation"[^>]*>\s*Your subscription is cancelled: it will not renew, and you keep access until \d{4}-\d{2}-\d{2}\./,
    );
    const after = await order(created.order_number);
    // The portal's button cancels at period end: active until end_date, which it shows.
    expect(after.subscription).toMatchObject({
      status: 'active',
      cancelled_at: expect.any(String),
      end_date: paid.subscription.end_date,
    });
    expect(after.status).toBe('approved');
    const cancelled = (await t.http.get(portalUrl).expect(200)).text;
    expect(cancelled).not.toContain('Cancel subscription');
    expect(cancelled).not.toContain('Renews on');
    expect(cancelled).toContain(`Ends on</span><span>${paid.subscription.end_date.slice(0, 10)}`);
  });

  it('a pending order has no portal yet; a declined one shows no downloads', async () => {
    const created = await createOrder(t, seller, orderBody(product.pid));
    await t.http.get(`/pay/order/${created.order_number}?transaction_id=`).expect(404);
    await payJson(t, created.pay_token, { ...MPESA, payment_number: '841000002' }).expect(200);
    const o = await order(created.order_number);
    const portal = await t.http
      .get(`/pay/order/${created.order_number}?transaction_id=${o.transaction_id}`)
      .expect(200);
    expect(portal.text).toContain('cancelled');
    expect(portal.text).not.toContain('Downloads');
  });

  describe('POST /v1/payments/{provider}/callback', () => {
    const post = (body: object, signature?: string) => {
      const raw = JSON.stringify(body);
      const req = t.http.post('/v1/payments/sandbox/callback').set('Content-Type', 'application/json');
      if (signature !== undefined) req.set('X-Sandbox-Signature', signature);
      return req.send(raw);
    };

    it('approves a pending order on a signed callback, once', async () => {
      const created = await createOrder(t, seller, orderBody(product.pid));
      const body = { order_number: created.order_number, transaction_id: 'gw-123', status: 'approved' };
      const events = recordEvents(t);
      const res = await post(body, signSandboxCallback(SECRET, JSON.stringify(body))).expect(200);
      expect(res.body).toEqual({ status: 'success', order_number: created.order_number, order_status: 'approved' });
      expect((await order(created.order_number)).transaction_id).toBe('gw-123');
      await post(body, signSandboxCallback(SECRET, JSON.stringify(body))).expect(200);
      expect(events).toHaveLength(1);
    });

    it('401 for a missing or wrong signature, 404 for an unknown provider or order', async () => {
      const created = await createOrder(t, seller, orderBody(product.pid));
      const body = { order_number: created.order_number, transaction_id: 'gw-1', status: 'declined' };
      const unsigned = await post(body).expect(401);
      expect(unsigned.body).toEqual({ status: 'error', message: 'Invalid signature.' });
      // Every 401 of /v1 carries a challenge, this one too.
      expect(unsigned.headers['www-authenticate']).toBe('Bearer realm="commerce-api"');
      await post(body, signSandboxCallback('another-secret-0123456789', JSON.stringify(body))).expect(401);
      expect((await order(created.order_number)).status).toBe('pending');
      const unknown = { ...body, order_number: 'ORD-none' };
      await post(unknown, signSandboxCallback(SECRET, JSON.stringify(unknown))).expect(404);
      await t.http.post('/v1/payments/paypal/callback').send({}).expect(404);
    });

    it('a correctly signed callback with a bad body is 422 on its fields (or 400 when not JSON), not a bad signature', async () => {
      const created = await createOrder(t, seller, orderBody(product.pid));
      const body = { order_number: created.order_number, transaction_id: 'gw-2', status: 'weird' };
      const res = await post(body, signSandboxCallback(SECRET, JSON.stringify(body))).expect(422);
      expect(res.body).toEqual({
        status: 'error',
        message: 'Validation failed.',
        errors: { status: ['status must be one of: approved, declined.'] },
      });
      // A signed form body: the sandbox's notification is JSON.
      const raw = `order_number=${created.order_number}&status=approved`;
      const malformed = await t.http
        .post('/v1/payments/sandbox/callback')
        .set('Content-Type', 'application/x-www-form-urlencoded')
        .set('X-Sandbox-Signature', signSandboxCallback(SECRET, raw))
        .send(raw)
        .expect(400);
      expect(malformed.body).toEqual({ status: 'error', message: 'Malformed JSON body.' });
      expect((await order(created.order_number)).status).toBe('pending');
    });
  });
});
