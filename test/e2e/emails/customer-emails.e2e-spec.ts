import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { domainEvent } from '../../../src/common/events/domain-event';
import { DomainEvents } from '../../../src/common/events/domain-events';
import { checkoutOf, customerBody, sellerApi, SellerApi } from '../../factories/api';
import { createSeller, TestSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';
import { csrfFrom, webAgent } from '../identity/support/web';
import { ReceivedMail, SmtpSink } from './smtp-sink';
import { hrefs, jobsCompleted, messageRows, orderId, settledMessage } from './support';

/** (README, *Customer emails*) against a real SMTP server: the six messages, their links, retries and the store's switch. */
describe('customer emails over SMTP', () => {
  let t: TestApp;
  let sink: SmtpSink;
  let seller: TestSeller;
  let api: SellerApi;
  const BRAND = 'Livros & Cia';

  beforeAll(async () => {
    sink = await SmtpSink.start();
    t = await createTestApp({
      listen: true,
      env: { SMTP_URL: sink.url(), MAIL_RETRY_DELAY_SECONDS: '1', DATA_DIR: mkdtempSync(join(tmpdir(), 'emails-')) },
    });
    seller = await createSeller(t, { brand: BRAND });
    api = sellerApi(t.http, seller.auth);
  });
  afterAll(async () => {
    await t.close();
    await sink.close();
  });

  const mailsTo = (address: string) => sink.accepted.filter((m) => m.envelope.to.includes(address));
  /** The `count`-th message accepted for `address`, once the server accepted it. */
  const mailOf = async (address: string, count: number): Promise<ReceivedMail> => {
    while (mailsTo(address).length < count) await sink.waitFor(sink.accepted.length + 1);
    return mailsTo(address)[count - 1];
  };
  const get = (url: string) => fetch(url, { redirect: 'manual' });

  async function paidOrder(email: string, product: { pid: string }, amount = 250, extra: Record<string, unknown> = {}) {
    const session = await api.order({ amount, product_pid: product.pid, customer: customerBody(email), ...extra });
    expect(await checkoutOf(t.http, session).pay({ payment_number: '841234567' })).toBe('approved');
    return { ...session, id: await orderId(t.dataSource, session.order_number) };
  }

  it('sends a receipt on approval: recipients, subject, both parts, working portal and download links', async () => {
    const product = await api.product({ name: 'Guia do Investidor', price: 250 });
    const pdf = Buffer.from('%PDF-1.4 the whole guide');
    await t.http
      .post(`/v1/products/${product.pid}/files`)
      .set(seller.auth)
      .field('name', 'Guia completo')
      .attach('file', pdf, { filename: 'guia.pdf', contentType: 'application/pdf' })
      .expect(201);
    const order = await paidOrder('ana@example.com', product);

    const mail = await mailOf('ana@example.com', 1);
    const { parsed } = mail;
    expect(mail.envelope.to).toEqual(['ana@example.com']);
    expect(mail.user).toBe('mailer');
    expect(parsed.to && !Array.isArray(parsed.to) && parsed.to.value).toEqual([
      { address: 'ana@example.com', name: 'Ana Maria' },
    ]);
    expect(parsed.from?.value).toEqual([{ address: 'no-reply@127.0.0.1', name: BRAND }]);
    expect(parsed.subject).toBe(`Your receipt from ${BRAND}: order ${order.order_number}`);
    expect(parsed.messageId).toBe(`<receipt.order-${order.id}.${order.order_number}@127.0.0.1>`);
    expect(parsed.headers.get('auto-submitted')).toBe('auto-generated');

    const [tx] = await t.dataSource.query('SELECT transaction_id FROM orders WHERE id = $1', [order.id]);
    const portal = `${t.config.urls.pay}/order/${order.order_number}?transaction_id=${encodeURIComponent(tx.transaction_id)}`;
    // decisions §16: a signed link of the pay surface (24 hours from this email), never the `{cdn_url}` one.
    const text = parsed.text ?? '';
    const download = new RegExp(`Guia completo: (${t.config.urls.pay}/download/[A-Za-z0-9_-]{38})`).exec(text)![1];
    expect(text).not.toContain(t.config.urls.cdn);
    expect(text).toContain(BRAND);
    expect(text).toContain(order.order_number);
    expect(text).toContain('Paid: 250.00 MZN');
    expect(text).toContain(`Guia completo: ${download}`);
    expect(text).toContain(portal);

    const html = parsed.html || '';
    expect(html).toContain('Livros &amp; Cia');
    expect(html).toContain('250.00 MZN');
    expect(hrefs(html)).toEqual([download, portal, portal]);
    expect(html).not.toMatch(/<script|<img|<link|src=|url\(/i);

    const page = await get(portal);
    expect(page.status).toBe(200);
    const pageHtml = await page.text();
    expect(pageHtml).toContain(order.order_number);
    // The portal gives fresh links of its own.
    expect(pageHtml).toMatch(new RegExp(`${t.config.urls.pay}/download/[A-Za-z0-9_-]{38}`));
    expect(pageHtml).not.toContain(t.config.urls.cdn);
    const downloaded = await get(download);
    expect(downloaded.status).toBe(200);
    expect(Buffer.from(await downloaded.arrayBuffer())).toEqual(pdf);

    const row = await settledMessage(t.dataSource, 'receipt', order.id);
    expect(row).toMatchObject({ state: 'sent', attempts: 1, recipient: 'ana@example.com', ref: `order:${order.id}` });
    expect(row.detail).toMatch(/^250 /);
  });

  it('sends a refund confirmation', async () => {
    const product = await api.product({ name: 'Curso rápido', price: 99.9 });
    const order = await paidOrder('rui@example.com', product, 99.9);
    await mailOf('rui@example.com', 1);
    await api.refund(order.order_number);
    const { parsed } = await mailOf('rui@example.com', 2);
    expect(parsed.subject).toBe(`Your refund from ${BRAND}: order ${order.order_number}`);
    expect(parsed.messageId).toBe(`<refund.order-${order.id}.${order.order_number}@127.0.0.1>`);
    expect(parsed.text).toContain('Refunded: 99.90 MZN');
    // The method as the buyer knows it, never its code.
    expect(parsed.text).toMatch(/goes back to the account you paid with \((M-Pesa|e-Mola)\)\./);
    expect(parsed.text).not.toContain('(mpesa)');
    expect(parsed.html).toContain('Refunded');
    const [portal] = hrefs(parsed.html || '');
    expect(portal).toContain(`/order/${order.order_number}?transaction_id=`);
    expect((await get(portal)).status).toBe(200);
  });

  it('retries a message the server refused (451) and delivers exactly one copy', async () => {
    const product = await api.product({ name: 'Planilha', price: 10 });
    const refusalsBefore = sink.refusals;
    sink.refuseNext(1);
    const order = await paidOrder('eva@example.com', product, 10);
    const row = await settledMessage(t.dataSource, 'receipt', order.id);
    expect(sink.refusals).toBe(refusalsBefore + 1);
    expect(row).toMatchObject({ state: 'sent', attempts: 2 });
    expect(row.last_error).toMatch(/451/);
    await jobsCompleted(t.dataSource, [row.event_id]);
    expect(mailsTo('eva@example.com').map((m) => m.parsed.subject)).toEqual([
      `Your receipt from ${BRAND}: order ${order.order_number}`,
    ]);
  });

  it('sends nothing when the store turns "Email my customers" off in the dashboard, and again when on', async () => {
    const agent = webAgent(t);
    const login = await agent.get('/web/login').expect(200);
    await agent
      .post('/web/login')
      .type('form')
      .send({ email: seller.email, password: seller.password, _csrf: csrfFrom(login.text) })
      .expect(303);
    const page = await agent.get('/web/settings/emails').expect(200);
    expect(page.text).toMatch(/name="email_customers" value="on" data-testid="email-customers" checked/);
    expect(page.text).toContain('href="/web/settings/emails"');
    // A form without its CSRF token changes nothing.
    await agent.post('/web/settings/emails').type('form').send({}).expect(403);
    // Unchecked: the box is absent from the form.
    await agent
      .post('/web/settings/emails')
      .type('form')
      .send({ _csrf: csrfFrom(page.text) })
      .expect(303);
    const off = await agent.get('/web/settings/emails').expect(200);
    expect(off.text).not.toMatch(/data-testid="email-customers" checked/);
    expect(
      (await t.dataSource.query('SELECT email_customers FROM stores WHERE id = $1', [seller.storeId]))[0]
        .email_customers,
    ).toBe(false);

    const product = await api.product({ name: 'Silencioso', price: 15 });
    const order = await paidOrder('quiet@example.com', product, 15);
    const row = await settledMessage(t.dataSource, 'receipt', order.id);
    expect(row).toMatchObject({ state: 'skipped', detail: 'The store does not email its customers.' });
    await jobsCompleted(t.dataSource, [row.event_id]);
    expect(mailsTo('quiet@example.com')).toEqual([]);

    await agent
      .post('/web/settings/emails')
      .type('form')
      .send({ _csrf: csrfFrom(off.text), email_customers: 'on' })
      .expect(303);
    const again = await paidOrder('loud@example.com', product, 15);
    expect((await settledMessage(t.dataSource, 'receipt', again.id)).state).toBe('sent');
    expect(mailsTo('loud@example.com')).toHaveLength(1);
  });

  describe('subscription notices, from the domain events', () => {
    let club: { id: number; pid: string };
    let plan: { plan_id: string };
    let planId: number;
    let first: Awaited<ReturnType<typeof paidOrder>>;
    let subscriptionId: number;
    let renewal: { id: number; order_number: string; checkout_url: string };
    const customer = 'leo@example.com';

    const publish = async (type: string, refs: Record<string, number>) => {
      const event = domainEvent({
        type,
        storeId: seller.storeId,
        aggregate: { type: 'subscription', id: subscriptionId },
        from: 'active',
        to: 'active',
        refs: { subscriptionId, productId: club.id, planId, ...refs },
        occurredAt: new Date().toISOString(),
      });
      await t.dataSource.transaction((manager) => t.app.get(DomainEvents).publish(event, manager));
      return event;
    };

    beforeAll(async () => {
      club = await api.product({ name: 'Clube do Livro', type: 'recurring', price: 300 });
      plan = await api.plan({
        product_pid: club.pid,
        name: 'Mensal',
        price: 300,
        interval: 'month',
        interval_count: 1,
      });
      planId = (await t.dataSource.query('SELECT id FROM plans WHERE plan_id = $1', [plan.plan_id]))[0].id;
      first = await paidOrder(customer, club, 300, { plan_id: plan.plan_id });
      subscriptionId = (await t.dataSource.query('SELECT id FROM subscriptions WHERE order_id = $1', [first.id]))[0].id;
      // A renewal-like order: pending, same customer, plan and price.
      const session = await api.order({
        amount: 300,
        product_pid: club.pid,
        plan_id: plan.plan_id,
        customer: customerBody(customer),
      });
      renewal = { ...session, id: await orderId(t.dataSource, session.order_number) };
      await mailOf(customer, 1);
    });

    it('receipt of a subscription names the plan and its period', async () => {
      const { parsed } = mailsTo(customer)[0];
      expect(parsed.subject).toBe(`Your receipt from ${BRAND}: order ${first.order_number}`);
      expect(parsed.text).toMatch(/Your Mensal subscription is active until \d{4}-\d{2}-\d{2}\./);
    });

    let renewalLink: string;

    it('renewal due: a fresh checkout link that opens the renewal order', async () => {
      await publish('subscription.renewal_due', { orderId: renewal.id });
      const { parsed } = await mailOf(customer, 2);
      expect(parsed.subject).toBe(`Your Mensal subscription with ${BRAND} is due for renewal`);
      expect(parsed.messageId).toBe(`<renewal_due.order-${renewal.id}.${renewal.order_number}@127.0.0.1>`);
      expect(parsed.text).toContain('To pay: 300.00 MZN');
      const links = hrefs(parsed.html || '');
      renewalLink = links[0];
      expect(links).toEqual([renewalLink, renewalLink]);
      expect(renewalLink).toMatch(new RegExp(`^${t.config.urls.pay}/token/[A-Za-z0-9]{32}$`));
      expect(parsed.text).toContain(renewalLink);
      const page = await get(renewalLink);
      expect(page.status).toBe(200);
      const checkoutPage = await page.text();
      expect(checkoutPage).toContain('Mensal');
      expect(checkoutPage).toContain(`action="${renewalLink}/pay"`);
      // The link of the order's creation was replaced by the email's.
      expect((await get(renewal.checkout_url)).status).toBe(404);
    });

    it('payment failed and past due of the same renewal order: one message, with the same working link', async () => {
      const failed = await publish('subscription.payment_failed', { orderId: renewal.id });
      const pastDue = await publish('subscription.past_due', { orderId: renewal.id });
      await jobsCompleted(t.dataSource, [failed.id, pastDue.id]);
      const mails = mailsTo(customer);
      expect(mails).toHaveLength(3);
      const { parsed } = mails[2];
      expect(parsed.subject).toBe(`Payment failed: your Mensal subscription with ${BRAND}`);
      const [link] = hrefs(parsed.html || '');
      expect(parsed.text).toContain(link);
      // The renewal-due email's link is this one, and still works: a later email breaks no link.
      expect(link).toBe(renewalLink);
      expect((await get(link)).status).toBe(200);
      const rows = await messageRows(t.dataSource, `kind = 'payment_failed' AND order_id = $1`, [renewal.id]);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ state: 'sent', attempts: 1 });
    });

    it('subscription cancelled: the portal link of the latest paid order', async () => {
      await publish('subscription.cancelled', { orderId: first.id });
      const { parsed } = await mailOf(customer, 4);
      expect(parsed.subject).toBe(`Your Mensal subscription with ${BRAND} is cancelled`);
      expect(parsed.text).toContain('Clube do Livro');
      const [portal] = hrefs(parsed.html || '');
      expect(portal).toContain(`/order/${first.order_number}?transaction_id=`);
      expect((await get(portal)).status).toBe(200);
    });

    it('subscription expired', async () => {
      await publish('subscription.expired', { orderId: renewal.id });
      const { parsed } = await mailOf(customer, 5);
      expect(parsed.subject).toBe(`Your Mensal subscription with ${BRAND} has expired`);
      expect(parsed.text).toContain('because its renewal was not paid');
      expect(parsed.html).toContain('Mensal');
      expect(hrefs(parsed.html || '')).toEqual([]);
    });

    it('a renewal paid before its email goes out gets none (nothing to pay)', async () => {
      const session = await api.order({
        amount: 300,
        product_pid: club.pid,
        plan_id: plan.plan_id,
        customer: customerBody('paid-early@example.com'),
      });
      expect(await checkoutOf(t.http, session).pay({ payment_number: '841234567' })).toBe('approved');
      const id = await orderId(t.dataSource, session.order_number);
      await publish('subscription.renewal_due', { orderId: id });
      const row = await settledMessage(t.dataSource, 'renewal_due', id);
      expect(row.state).toBe('skipped');
      expect(row.detail).toContain('no longer pending');
      await jobsCompleted(t.dataSource, [row.event_id]);
      // The receipt is a job of its own, which may still be on its way: wait for it to settle.
      expect((await settledMessage(t.dataSource, 'receipt', id)).state).toBe('sent');
      expect(mailsTo('paid-early@example.com').map((m) => m.parsed.subject)).toEqual([
        `Your receipt from ${BRAND}: order ${session.order_number}`,
      ]);
    });
  });
});
