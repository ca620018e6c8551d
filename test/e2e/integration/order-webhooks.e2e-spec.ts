import { IncomingHttpHeaders } from 'node:http';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import {
  addMonthsUtc,
  checkoutOf,
  customerBody,
  deliveryStates,
  SellerApi,
  sellerApi,
  TIMESTAMP,
} from '../../factories/api';
import { createSeller, TestSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';
import { ReceivedRequest, Receiver, startReceiver, waitUntil } from '../webhooks/helpers';

/*
 * Issues #5–#8 end to end: everything is created through the API, paid through the hosted checkout,
 * and the webhook payload is read where a seller reads it, at a real HTTP receiver.
 */

const NO_TRACKING = { utm_source: null, utm_campaign: null, utm_medium: null, utm_content: null, utm_term: null };

/** (the webhooks of the OpenAPI description) for a one-time product: every plan_subscriber field null but the portal URL. */
const oneTimeSubscriber = (portalUrl: string) => ({
  plan_name: null,
  start_date: null,
  end_date: null,
  status: null,
  plan_type: null,
  plan_interval: null,
  cancelled_at: null,
  portal_url: portalUrl,
});

const verify = (secret: string, request: ReceivedRequest) =>
  new StandardWebhook(secret).verify(request.body, request.headers as Record<string, string>);

function signatureCount(headers: IncomingHttpHeaders): number {
  return String(headers['webhook-signature']).split(' ').length;
}

describe('order → webhook payload, across billing, catalog, discounts, affiliates and webhooks', () => {
  let t: TestApp;
  let seller: TestSeller;
  let api: SellerApi;
  /** Two webhooks on this URL: every event, and order_approved only. */
  let grouped: Receiver;
  /** A webhook limited to the one-time product. */
  let limited: Receiver;
  let everyEvent: { id: number; secret: string };
  let approvedOnly: { id: number; secret: string };
  let courseOnly: { id: number; secret: string };
  let course: { id: number; pid: string };
  let presets: { id: number; pid: string };
  let club: { id: number; pid: string };
  let monthly: { plan_id: string };
  let presetsBump: { id: number };
  let affiliate: { id: number };
  /** Filled by the tests, in order: what each receiver must have got in the end. */
  const sentTo = { grouped: [] as string[], limited: [] as string[] };

  beforeAll(async () => {
    t = await createTestApp();
    seller = await createSeller(t, { brand: 'Loja Aurora' });
    api = sellerApi(t.http, seller.auth);
    grouped = await startReceiver();
    limited = await startReceiver();

    course = await api.product({
      name: 'Curso de Fotografia',
      price: 100,
      image_url: 'https://img.example.com/curso.png',
    });
    presets = await api.product({ name: 'Presets Lightroom', price: 40 });
    const album = await api.product({ name: 'Album', price: 60 });
    presetsBump = await api.orderBump(course.id, { product_id: presets.id, price: 25.5 });
    await api.orderBump(course.pid, { product_pid: album.pid, price: 30 });
    await api.linkFile(course.id, { name: 'Aula 1', link: 'https://files.example.com/aula-1.mp4' });
    await api.linkFile(presets.pid, { name: 'Presets pack', link: 'https://files.example.com/presets.zip' });
    await api.linkFile(album.id, { name: 'Album pack', link: 'https://files.example.com/album.zip' });
    club = await api.product({
      name: 'Clube de Fotografia',
      type: 'recurring',
      price: 300,
      image_url: 'https://img.example.com/clube.png',
    });
    monthly = await api.plan({ product_pid: club.pid, name: 'Mensal', price: 300, interval: 'month' });

    await api.discount({ code: 'SAVE15', type: 'percentage', value: 15, uses_limit: 10 });
    affiliate = await api.affiliate({ name: 'Rui Afiliado', email: 'rui@example.com', commission_percent: 7.5 });

    everyEvent = await api.webhook({
      url: grouped.url,
      events: ['order_approved', 'order_cancelled', 'order_refund'],
      name: 'CRM',
    });
    approvedOnly = await api.webhook({ url: grouped.url, events: ['order_approved'] });
    courseOnly = await api.webhook({
      url: limited.url,
      events: ['order_approved', 'order_cancelled', 'order_refund'],
      product_details: course.pid,
    });
  });

  afterAll(async () => {
    await grouped?.close();
    await limited?.close();
    await t?.close();
  });

  /** The next request a receiver gets, after the `already` it had. */
  async function nextAt(receiver: Receiver, already: number): Promise<ReceivedRequest> {
    await receiver.waitFor(already + 1, 15_000);
    return receiver.requests[already];
  }

  let courseOrder: { order_number: string; transaction_id: string };
  let clubOrder: { order_number: string; transaction_id: string };

  it('one-time product with coupon, affiliate, accepted bump and utm from the request and the link: every field and type', async () => {
    const session = await api.order({
      amount: 100,
      product_pid: course.pid,
      customer: customerBody('ana@example.com', { payment_number: '+258840000001' }),
      coupon_code: 'save15',
      affiliate_id: affiliate.id,
      tracking: { utm_source: 'newsletter', utm_medium: 'email', utm_term: 'fotografia' },
    });
    const checkout = checkoutOf(t.http, session);
    const page = await checkout.view('?utm_source=instagram&utm_campaign=launch&utm_content=story').expect(200);
    expect(page.text).toContain('Presets Lightroom');
    const seen = { grouped: grouped.requests.length, limited: limited.requests.length };

    expect(await checkout.pay({ payment_number: '841234567', bumps: [presetsBump.id] })).toBe('approved');
    const order = await api.getOrder(session.order_number);
    courseOrder = { order_number: session.order_number, transaction_id: order.transaction_id };
    sentTo.grouped.push(`order_approved ${session.order_number}`);
    sentTo.limited.push(`order_approved ${session.order_number}`);

    const request = await nextAt(grouped, seen.grouped);
    expect(request.method).toBe('POST');
    expect(request.headers['content-type']).toBe('application/json');
    const payload = JSON.parse(request.body);
    const portalUrl = `${t.config.urls.pay}/order/${session.order_number}?transaction_id=${order.transaction_id}`;
    expect(payload).toEqual({
      order_type: 'order_approved',
      order_number: session.order_number,
      status: 'approved',
      transaction_id: order.transaction_id,
      payment_method: 'mpesa',
      // 100 − 15% coupon + 25.50 bump; the coupon applies to the product, not the add-on.
      amount: 110.5,
      currency: 'MZN',
      discount_amount: 15,
      coupon_code: 'SAVE15',
      original_amount: 125.5,
      // The link's utm_* win over the request's; the request's others are kept.
      tracking: {
        utm_source: 'instagram',
        utm_campaign: 'launch',
        utm_medium: 'email',
        utm_content: 'story',
        utm_term: 'fotografia',
      },
      plan_subscriber: oneTimeSubscriber(portalUrl),
      product: { name: 'Curso de Fotografia', price: '100.00', pid: course.pid },
      customer: {
        email: 'ana@example.com',
        name: 'Ana Maria',
        mobile_number: '+258841234567',
        payment_number: '841234567',
      },
      // 110.50 × 7.5% = 8.2875 → 8.29 (half up on exact cents; a float product rounds to 8.28).
      affiliate: [
        {
          id: affiliate.id,
          name: 'Rui Afiliado',
          email: 'rui@example.com',
          commission_percent: 7.5,
          commission_amount: 8.29,
        },
      ],
      order_bump: [{ product_pid: presets.pid, name: 'Presets Lightroom', price: 25.5 }],
      brand: 'Loja Aurora',
      image: 'https://img.example.com/curso.png',
      test: false,
    });
    expect(order.transaction_id).toMatch(/^sbx_/);
    expect(
      Object.fromEntries(
        Object.entries(payload).map(([k, v]) => [k, Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v]),
      ),
    ).toEqual({
      order_type: 'string',
      order_number: 'string',
      status: 'string',
      transaction_id: 'string',
      payment_method: 'string',
      amount: 'number',
      currency: 'string',
      discount_amount: 'number',
      coupon_code: 'string',
      original_amount: 'number',
      tracking: 'object',
      plan_subscriber: 'object',
      product: 'object',
      customer: 'object',
      affiliate: 'array',
      order_bump: 'array',
      brand: 'string',
      image: 'string',
      test: 'boolean',
    });

    // The API shows the same sale: amounts, commission, bump and tracking.
    expect(order).toMatchObject({
      status: 'approved',
      amount: 110.5,
      original_amount: 125.5,
      discount_amount: 15,
      coupon_code: 'SAVE15',
      affiliate: { id: affiliate.id, commission_amount: 8.29 },
      order_bump: payload.order_bump,
      tracking: payload.tracking,
    });

    // Both webhooks of the URL signed the one POST; the library verifies it with either secret.
    expect(request.headers['webhook-id']).toMatch(/^msg_/);
    expect(signatureCount(request.headers)).toBe(2);
    expect(verify(everyEvent.secret, request)).toEqual(payload);
    expect(verify(approvedOnly.secret, request)).toEqual(payload);
    expect(() => verify(courseOnly.secret, request)).toThrow();

    const other = await nextAt(limited, seen.limited);
    expect(other.body).toBe(request.body);
    expect(signatureCount(other.headers)).toBe(1);
    expect(verify(courseOnly.secret, other)).toEqual(payload);

    // portal_url opens the portal, with the files of the product and of the accepted bump only.
    const portal = await t.http.get(portalUrl.slice(t.config.urls.base.length)).expect(200);
    expect(portal.text).toContain('https://files.example.com/aula-1.mp4');
    expect(portal.text).toContain('https://files.example.com/presets.zip');
    expect(portal.text).not.toContain('album.zip');
    expect((await api.getDiscount('SAVE15')).used_count).toBe(1);
  });

  it('recurring product with a plan: plan_subscriber filled from the started subscription', async () => {
    const session = await api.order({
      amount: 300,
      product_pid: club.pid,
      plan_id: monthly.plan_id,
      customer: customerBody('bia@example.com'),
    });
    const seen = grouped.requests.length;
    expect(await checkoutOf(t.http, session).pay({ payment_method: 'emola', payment_number: '861234567' })).toBe(
      'approved',
    );
    const order = await api.getOrder(session.order_number);
    clubOrder = { order_number: session.order_number, transaction_id: order.transaction_id };
    sentTo.grouped.push(`order_approved ${session.order_number}`);

    const request = await nextAt(grouped, seen);
    const payload = JSON.parse(request.body);
    expect(payload).toEqual({
      order_type: 'order_approved',
      order_number: session.order_number,
      status: 'approved',
      transaction_id: order.transaction_id,
      payment_method: 'emola',
      amount: 300,
      currency: 'MZN',
      discount_amount: 0,
      coupon_code: null,
      original_amount: 300,
      tracking: NO_TRACKING,
      plan_subscriber: {
        plan_name: 'Mensal',
        start_date: expect.stringMatching(TIMESTAMP),
        end_date: expect.stringMatching(TIMESTAMP),
        status: 'active',
        plan_type: 'recurring',
        plan_interval: 'month',
        cancelled_at: null,
        portal_url: `${t.config.urls.pay}/order/${session.order_number}?transaction_id=${order.transaction_id}`,
      },
      product: { name: 'Clube de Fotografia', price: '300.00', pid: club.pid },
      customer: {
        email: 'bia@example.com',
        name: 'Ana Maria',
        mobile_number: '+258841234567',
        payment_number: '861234567',
      },
      affiliate: [],
      order_bump: [],
      brand: 'Loja Aurora',
      image: 'https://img.example.com/clube.png',
      test: false,
    });
    const { start_date: start, end_date: end } = payload.plan_subscriber;
    expect(Math.abs(Date.parse(start) - Date.now())).toBeLessThan(60_000);
    expect(new Date(end).toISOString()).toBe(addMonthsUtc(new Date(start), 1).toISOString());
    expect(end.slice(-8)).toBe(start.slice(-8));
    expect(order.subscription).toEqual({
      id: expect.any(Number),
      status: 'active',
      start_date: start,
      end_date: end,
      cancelled_at: null,
    });
    expect(verify(everyEvent.secret, request)).toEqual(payload);

    // The catalog sees the sale: a subscriber of the plan (the OpenAPI description), and the plan can no longer go.
    const subscribers = (await t.http.get(`/v1/plans/${monthly.plan_id}/subscribers`).set(seller.auth).expect(200))
      .body;
    expect(subscribers).toEqual({
      status: 'success',
      page: 1,
      per_page: 15,
      last_page: 1,
      total: 1,
      plan: { plan_id: monthly.plan_id, name: 'Mensal', product_pid: club.pid },
      subscribers: [
        {
          order_number: session.order_number,
          amount: 300,
          currency: 'MZN',
          status: 'approved',
          customer: { name: 'Ana Maria', email: 'bia@example.com', mobile_number: '+258841234567' },
          created_at: expect.stringMatching(TIMESTAMP),
          updated_at: expect.stringMatching(TIMESTAMP),
        },
      ],
    });
    const blocked = await t.http.delete(`/v1/plans/${monthly.plan_id}`).set(seller.auth).expect(409);
    expect(blocked.body).toEqual({
      status: 'error',
      message: 'This plan has one or more sales and cannot be deleted.',
    });
  });

  it('declined payment (number ending 0002): order_cancelled with its own transaction id; the coupon use comes back', async () => {
    const session = await api.order({
      amount: 100,
      product_pid: course.pid,
      customer: customerBody('caio@example.com'),
      coupon_code: 'SAVE15',
      affiliate_id: affiliate.id,
    });
    expect((await api.getDiscount('SAVE15')).used_count).toBe(2);
    const seen = { grouped: grouped.requests.length, limited: limited.requests.length };
    expect(await checkoutOf(t.http, session).pay({ payment_method: 'emola', payment_number: '861230002' })).toBe(
      'cancelled',
    );
    const order = await api.getOrder(session.order_number);
    sentTo.grouped.push(`order_cancelled ${session.order_number}`);
    sentTo.limited.push(`order_cancelled ${session.order_number}`);

    const request = await nextAt(grouped, seen.grouped);
    const payload = JSON.parse(request.body);
    expect(payload).toEqual({
      order_type: 'order_cancelled',
      order_number: session.order_number,
      status: 'cancelled',
      transaction_id: order.transaction_id,
      payment_method: 'emola',
      amount: 85,
      currency: 'MZN',
      discount_amount: 15,
      coupon_code: 'SAVE15',
      original_amount: 100,
      tracking: NO_TRACKING,
      plan_subscriber: oneTimeSubscriber(
        `${t.config.urls.pay}/order/${session.order_number}?transaction_id=${order.transaction_id}`,
      ),
      product: { name: 'Curso de Fotografia', price: '100.00', pid: course.pid },
      customer: {
        email: 'caio@example.com',
        name: 'Ana Maria',
        mobile_number: '+258841234567',
        payment_number: '861230002',
      },
      // No sale, no commission.
      affiliate: [
        {
          id: affiliate.id,
          name: 'Rui Afiliado',
          email: 'rui@example.com',
          commission_percent: 7.5,
          commission_amount: 0,
        },
      ],
      order_bump: [],
      brand: 'Loja Aurora',
      image: 'https://img.example.com/curso.png',
      test: false,
    });
    expect(order.transaction_id).toMatch(/^sbx_/);
    expect(order.transaction_id).not.toBe(courseOrder.transaction_id);
    // Only the webhook subscribed to order_cancelled signed it.
    expect(signatureCount(request.headers)).toBe(1);
    expect(verify(everyEvent.secret, request)).toEqual(payload);
    expect(() => verify(approvedOnly.secret, request)).toThrow();
    expect(JSON.parse((await nextAt(limited, seen.limited)).body)).toEqual(payload);
    expect((await api.getDiscount('SAVE15')).used_count).toBe(1);
  });

  it('refund: order_refund with the sale’s transaction id and amounts; a refunded subscription shows cancelled', async () => {
    const seen = { grouped: grouped.requests.length, limited: limited.requests.length };
    const refunded = await api.refund(courseOrder.order_number);
    expect(refunded.status).toBe('refunded');
    sentTo.grouped.push(`order_refund ${courseOrder.order_number}`);
    sentTo.limited.push(`order_refund ${courseOrder.order_number}`);

    const request = await nextAt(grouped, seen.grouped);
    const payload = JSON.parse(request.body);
    const approved = JSON.parse(
      grouped.requests.find((r) => JSON.parse(r.body).order_number === courseOrder.order_number)!.body,
    );
    // Everything as on approval, except the kind and the status.
    expect(payload).toEqual({ ...approved, order_type: 'order_refund', status: 'refunded' });
    expect(payload.transaction_id).toBe(courseOrder.transaction_id);
    expect(payload.affiliate[0].commission_amount).toBe(8.29);
    expect(signatureCount(request.headers)).toBe(1);
    expect(verify(everyEvent.secret, request)).toEqual(payload);
    expect(JSON.parse((await nextAt(limited, seen.limited)).body)).toEqual(payload);

    const before = grouped.requests.length;
    await api.refund(clubOrder.order_number);
    sentTo.grouped.push(`order_refund ${clubOrder.order_number}`);
    const club = JSON.parse((await nextAt(grouped, before)).body);
    expect(club).toMatchObject({
      order_type: 'order_refund',
      status: 'refunded',
      transaction_id: clubOrder.transaction_id,
    });
    expect(club.plan_subscriber).toMatchObject({
      plan_name: 'Mensal',
      status: 'cancelled',
      cancelled_at: expect.stringMatching(TIMESTAMP),
    });
    const subscribers = (await t.http.get(`/v1/plans/${monthly.plan_id}/subscribers`).set(seller.auth).expect(200)).body
      .subscribers;
    expect(subscribers).toEqual([
      expect.objectContaining({ order_number: clubOrder.order_number, status: 'refunded' }),
    ]);
    await t.http.delete(`/v1/plans/${monthly.plan_id}`).set(seller.auth).expect(409);
  });

  it('in the end: one POST per event and URL, the product-limited webhook only for its product', async () => {
    // Every outbox row of the store has been attempted: nothing more can arrive.
    await waitUntil(
      async () => {
        const states = await deliveryStates(t.dataSource, seller.storeId);
        return !states.pending && !states.sending;
      },
      15_000,
      () => 'every delivery attempted',
    );
    const events = (r: Receiver) =>
      r.requests.map((q) => JSON.parse(q.body)).map((p) => `${p.order_type} ${p.order_number}`);
    expect(events(grouped)).toEqual(sentTo.grouped);
    expect(events(limited)).toEqual(sentTo.limited);
    expect(events(limited).some((e) => e.endsWith(clubOrder.order_number))).toBe(false);
    expect(new Set(grouped.requests.map((q) => q.headers['webhook-id'])).size).toBe(sentTo.grouped.length);
    expect(await deliveryStates(t.dataSource, seller.storeId)).toEqual({
      success: sentTo.grouped.length + sentTo.limited.length,
    });

    const summary = (await t.http.get(`/v1/webhooks/${approvedOnly.id}`).set(seller.auth).expect(200)).body.webhook
      .summary;
    expect(summary).toEqual({
      last_delivery_at: expect.stringMatching(TIMESTAMP),
      last_delivery_status: 'success',
      last_response_code: 200,
    });
  });
});
