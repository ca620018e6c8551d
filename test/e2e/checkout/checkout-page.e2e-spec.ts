import { createSeller, TestSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';
import {
  createOrder,
  insertBump,
  insertDiscount,
  insertProduct,
  orderBody,
  pathOf,
  payJson,
} from '../billing/fixtures';

const PAYS = { payment_method: 'mpesa', payment_number: '841234567' };

/** The text of the element with `testid` (its first), tags stripped and spaces collapsed. */
function textOf(html: string, testid: string): string | null {
  const open = new RegExp(`<(\\w+)[^>]*data-testid="${testid}"[^>]*>`).exec(html);
  if (!open) return null;
  let depth = 1;
  const tags = new RegExp(`<(/?)${open[1]}\\b[^>]*>`, 'g');
  tags.lastIndex = open.index + open[0].length;
  let end = html.length;
  for (let m = tags.exec(html); m; m = tags.exec(html)) {
    depth += m[1] ? -1 : 1;
    if (depth === 0) {
      end = m.index;
      break;
    }
  }
  return html
    .slice(open.index + open[0].length, end)
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const allTexts = (html: string, testid: string): string[] =>
  html
    .split(`data-testid="${testid}"`)
    .slice(1)
    .map((rest) => textOf(`<div data-testid="${testid}"${rest}`, testid)!);

/**
 * The checkout page (billing README, `checkout/`): the total the buyer will pay with the add-ons
 * ticked, the choices kept after an error, the sandbox's notice in every state, the pay form's
 * groups, and a breakdown on the thank-you and the portal.
 */
describe('the checkout page tells the buyer what they pay and keeps what they chose', () => {
  let t: TestApp;
  let seller: TestSeller;
  let product: { id: number; pid: string; name: string };
  let presets: number;
  let album: number;

  beforeAll(async () => {
    t = await createTestApp();
    seller = await createSeller(t, { brand: 'Loja Aurora' });
    product = await insertProduct(t, seller.storeId, { name: 'Curso de Fotografia', price: '150.00' });
    const ebook = await insertProduct(t, seller.storeId, { name: 'Presets Lightroom' });
    const albumProduct = await insertProduct(t, seller.storeId, { name: 'Album' });
    presets = await insertBump(t, seller.storeId, product.id, ebook.id, '25.55');
    album = await insertBump(t, seller.storeId, product.id, albumProduct.id, '1234.10');
    await insertDiscount(t, seller.storeId, { code: 'AURORA10', type: 'fixed', value: '10.00' });
  });
  afterAll(() => t.close());

  const order = async (ref: string) => (await t.http.get(`/v1/orders/${ref}`).set(seller.auth).expect(200)).body.order;
  const payForm = (payToken: string, form: string) => t.http.post(`/pay/token/${payToken}/pay`).type('form').send(form);

  it('each add-on says what it adds; the Total is the price after the discount plus the add-ons ticked', async () => {
    const created = await createOrder(t, seller, orderBody(product.pid, { amount: 150, coupon_code: 'AURORA10' }));
    const page = (await t.http.get(pathOf(created.checkout_url)).expect(200)).text;
    expect(textOf(page, 'total')).toBe('140.00 MZN');
    // Integer cents for the page's script; each add-on's price beside it for a page without script.
    expect(page).toContain('id="total-amount" data-base-cents="14000"');
    expect(page).toContain(`value="${presets}" data-cents="2555">`);
    expect(page).toContain(`value="${album}" data-cents="123410">`);
    expect(allTexts(page, 'bumps')[0]).toContain('Presets Lightroom +25.55 MZN');
    expect(allTexts(page, 'bumps')[0]).toContain('Album +1,234.10 MZN');
    expect(textOf(page, 'bumps-note')).toBe('Each add-on you tick adds its price to your total.');

    // The page again after an error, with both add-ons ticked: the Total counts them.
    const again = await payForm(
      created.pay_token,
      `payment_method=mpesa&payment_number=12&bumps=${presets}&bumps=${album}`,
    ).expect(422);
    expect(textOf(again.text, 'total')).toBe('1,399.65 MZN');

    // Declined with both: the page of the cancelled order lists what the attempt held and its amount.
    await payForm(
      created.pay_token,
      `payment_method=mpesa&payment_number=841110002&bumps=${presets}&bumps=${album}`,
    ).expect(303);
    const declined = (await t.http.get(pathOf(created.checkout_url)).expect(200)).text;
    expect(allTexts(declined, 'bought-bump')).toEqual(['Presets Lightroom +25.55 MZN', 'Album +1,234.10 MZN']);
    expect(textOf(declined, 'total')).toBe('1,399.65 MZN');
    expect((await order(created.order_number)).amount).toBe(1399.65);
  });

  it('the thank-you and the portal list the product, its discount, each add-on bought and the amount paid', async () => {
    const created = await createOrder(t, seller, orderBody(product.pid, { amount: 150, coupon_code: 'AURORA10' }));
    const paid = await payForm(
      created.pay_token,
      `payment_method=mpesa&payment_number=841234567&bumps=${presets}&bumps=${album}`,
    ).expect(303);
    const thanks = (await t.http.get(pathOf(paid.headers.location)).expect(200)).text;
    expect(textOf(thanks, 'thank-you')).toContain('You bought Curso de Fotografia with Presets Lightroom and Album .');
    expect(textOf(thanks, 'order-product')).toBe('Curso de Fotografia 150.00 MZN');
    expect(textOf(thanks, 'order-discount')).toBe('Discount (AURORA10) −10.00 MZN');
    expect(allTexts(thanks, 'order-bump')).toEqual(['Presets Lightroom +25.55 MZN', 'Album +1,234.10 MZN']);
    expect(textOf(thanks, 'order-amount')).toBe('Paid 1,399.65 MZN');
    expect((await order(created.order_number)).amount).toBe(1399.65);

    // The checkout link opened again shows the same sum, not the price without the add-ons.
    const approved = (await t.http.get(pathOf(created.checkout_url)).expect(200)).text;
    expect(textOf(approved, 'total')).toBe('1,399.65 MZN');
    expect(allTexts(approved, 'bought-bump')).toHaveLength(2);
  });

  it('a form refused for a field keeps every choice: method, number and add-ons', async () => {
    const created = await createOrder(t, seller, orderBody(product.pid));
    const html = await payForm(created.pay_token, `payment_method=emola&payment_number=abc&bumps=${album}`).expect(422);
    expect(html.text).toContain('value="emola" checked>');
    expect(html.text).toContain('value="mpesa">');
    expect(html.text).toContain('value="abc"');
    expect(html.text).toContain(`value="${album}" data-cents="123410" checked>`);
    expect(html.text).toContain(`value="${presets}" data-cents="2555">`);
    expect(textOf(html.text, 'total')).toBe('1,384.10 MZN');
    expect(html.text).toContain('Enter the mobile number you pay with, digits only (for example 841234567).');

    // No add-on ticked: none is ticked on the page again (an HTML form sends none), whatever the order held.
    await payForm(created.pay_token, `payment_method=mpesa&payment_number=841110002&bumps=${presets}`).expect(303);
    await t.http.post(`/pay/token/${created.pay_token}/retry`).expect(303);
    const retried = (await t.http.get(pathOf(created.checkout_url)).expect(200)).text;
    expect(retried).toContain(`value="${presets}" data-cents="2555" checked>`);
    const none = await payForm(created.pay_token, 'payment_method=emola&payment_number=x').expect(422);
    expect(none.text).not.toMatch(/name="bumps"[^>]* checked>/);
    expect(textOf(none.text, 'total')).toBe('150.00 MZN');

    // A method that is not offered: none is ticked, and the page asks for one.
    const unknown = await payForm(created.pay_token, 'payment_method=visa&payment_number=841234567').expect(422);
    expect(unknown.text).not.toMatch(/name="payment_method"[^>]* checked>/);
    expect(unknown.text).toContain('Choose how you want to pay: M-Pesa or e-Mola.');
    expect(unknown.text).toContain('value="841234567"');
    // Opened afresh, the first method is ticked as before.
    expect((await t.http.get(pathOf(created.checkout_url)).expect(200)).text).toContain('value="mpesa" checked>');
  });

  it('the pay form groups its choices: fieldsets with a legend, no label without a control', async () => {
    const created = await createOrder(t, seller, orderBody(product.pid));
    const page = (await t.http.get(pathOf(created.checkout_url)).expect(200)).text;
    const methods = /<fieldset data-testid="payment-methods">([\s\S]*?)<\/fieldset>/.exec(page)![1];
    expect(methods).toMatch(/^\s*<legend>Pay with<\/legend>/);
    expect(methods.match(/type="radio" name="payment_method"/g)).toHaveLength(2);
    const bumps = /<fieldset data-testid="bumps">([\s\S]*?)<\/fieldset>/.exec(page)![1];
    expect(bumps).toMatch(/^\s*<legend>Add to your order<\/legend>/);
    expect(bumps.match(/type="checkbox" name="bumps"/g)).toHaveLength(2);
    // Every <label> names a control: it holds one or points at one.
    for (const [, label, inner] of page.matchAll(/<label([^>]*)>([\s\S]*?)<\/label>/g))
      expect(/\bfor="/.test(label) || /<input\b/.test(inner)).toBe(true);
  });

  it('the sandbox notice is on the checkout in every state: pending, declined, cancelled, approved', async () => {
    const notice = 'data-testid="test-mode">Test payment: no money moves<';
    const pending = await createOrder(t, seller, orderBody(product.pid));
    expect((await t.http.get(pathOf(pending.checkout_url)).expect(200)).text).toContain(notice);

    const declined = await createOrder(t, seller, orderBody(product.pid));
    const back = await payForm(declined.pay_token, 'payment_method=mpesa&payment_number=841110002').expect(303);
    const declinedPage = (await t.http.get(pathOf(back.headers.location)).expect(200)).text;
    expect(declinedPage).toContain('data-testid="decline-reason"');
    expect(declinedPage).toContain(notice);

    const cancelled = await createOrder(t, seller, orderBody(product.pid));
    await t.http.post(`/pay/token/${cancelled.pay_token}/cancel`).expect(303);
    expect((await t.http.get(pathOf(cancelled.checkout_url)).expect(200)).text).toContain(notice);

    const approved = await createOrder(t, seller, orderBody(product.pid));
    await payJson(t, approved.pay_token, PAYS).expect(200);
    const approvedPage = (await t.http.get(pathOf(approved.checkout_url)).expect(200)).text;
    expect(approvedPage).toContain('data-testid="order-state"');
    expect(approvedPage).toContain(notice);
    // Paying again: the 409 page of the approved order says it too.
    const again = await payForm(approved.pay_token, 'payment_method=mpesa&payment_number=841234567').expect(409);
    expect(again.text).toContain(notice);
  });
});
