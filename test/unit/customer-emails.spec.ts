import { domainEvent } from '../../src/common/events/domain-event';
import { ConfigError, loadConfig } from '../../src/config/app-config';
import { retryLimitFor } from '../../src/modules/notifications/customer-messages.listener';
import { EmailRenderer } from '../../src/modules/notifications/email/email-renderer';
import { CustomerMessage, messageRequestOf } from '../../src/modules/notifications/messages/customer-message';

/** A receipt of one approved order, with `over` taking the place of its parts. */
const message = (over: Partial<CustomerMessage>): CustomerMessage => ({
  id: 'receipt.order-3.ORD-3',
  kind: 'receipt',
  store: { id: 1, name: 'S', brand: 'Loja', test: false },
  customer: { name: 'Ana', email: 'a@example.com', mobileNumber: '+258841234567' },
  order: {
    number: 'ORD-3',
    status: 'approved',
    currency: 'MZN',
    amount: 100,
    discountAmount: 0,
    couponCode: null,
    paymentMethod: 'mpesa',
    transactionId: 't',
    items: [{ name: 'Club', amount: 100 }],
  },
  product: { name: 'Club' },
  plan: null,
  subscription: null,
  links: { portal: 'https://pay.example/order/ORD-3?transaction_id=t', checkout: null, downloads: [] },
  licenseKeys: [],
  occurredAt: '2030-01-01T00:00:00.000Z',
  ...over,
});

describe('mail configuration', () => {
  it('reads SMTP_URL and MAIL_FROM; the outbox and the sender domain follow DATA_DIR and BASE_URL', () => {
    const config = loadConfig({
      SMTP_URL: 'smtps://u:p@mail.example:465',
      MAIL_FROM: 'x@y.example',
      BASE_URL: 'https://shop.example.com/api',
      DATA_DIR: '/srv/data',
    });
    expect(config.mail).toEqual({
      smtpUrl: 'smtps://u:p@mail.example:465',
      from: 'x@y.example',
      domain: 'shop.example.com',
      outboxDir: '/srv/data/outbox',
      retryDelaySeconds: 60,
    });
    expect(loadConfig({}).mail).toMatchObject({
      smtpUrl: undefined,
      from: undefined,
      domain: 'localhost',
      outboxDir: 'data/outbox',
    });
  });

  it('refuses a bad SMTP_URL without echoing it (it carries the password)', () => {
    expect(() => loadConfig({ SMTP_URL: 'http://user:hunter2@mail.example' })).toThrow(
      new ConfigError('Invalid configuration: SMTP_URL=(value hidden) must be an smtp:// or smtps:// URL'),
    );
  });

  it('retries for about a day with back-off', () => {
    expect(retryLimitFor(60)).toBe(10);
    // The expected total of the jittered back-off (1.5 d (2^n - 1)) reaches 24 h with the limit, not before.
    for (const d of [1, 5, 60, 300]) {
      const n = retryLimitFor(d);
      expect(1.5 * d * (2 ** n - 1)).toBeGreaterThanOrEqual(24 * 3600);
      expect(1.5 * d * (2 ** (n - 1) - 1)).toBeLessThan(24 * 3600);
    }
  });
});

describe('customer messages', () => {
  const event = (type: string, refs: Record<string, number>) =>
    domainEvent({
      type,
      storeId: 1,
      aggregate: { type: 'x', id: 1 },
      from: null,
      to: 'y',
      refs,
      occurredAt: '2030-01-01T00:00:00.000Z',
    });

  it('one message per event kind, payment failed and past due of an order sharing one key', () => {
    expect(messageRequestOf(event('order.approved', { orderId: 7 }))).toEqual({
      kind: 'receipt',
      ref: 'order:7',
      orderId: 7,
    });
    expect(messageRequestOf(event('order.cancelled', { orderId: 7 }))).toBeNull();
    expect(messageRequestOf(event('subscription.payment_failed', { orderId: 9, subscriptionId: 3 }))).toEqual(
      messageRequestOf(event('subscription.past_due', { orderId: 9, subscriptionId: 3 })),
    );
    expect(messageRequestOf(event('subscription.cancelled', { orderId: 9, subscriptionId: 3 }))).toEqual({
      kind: 'subscription_cancelled',
      ref: 'subscription:3',
      orderId: 9,
    });
    expect(messageRequestOf(event('subscription.expired', { orderId: 9 }))).toBeNull();
  });

  it('escapes what the store and the customer wrote in the HTML part; headers stay one line', () => {
    const escaped = message({
      store: { id: 1, name: 'S', brand: 'Tom & <b>Jerry</b>\r\nBcc: x@evil.example', test: false },
      customer: { name: '<script>alert(1)</script>', email: 'a@example.com', mobileNumber: '+258841234567' },
      order: { ...message({}).order, number: 'ORD-1', amount: 123456, items: [{ name: 'E"book', amount: 123456 }] },
      product: { name: 'E"book' },
      links: {
        portal: 'https://pay.example/order/ORD-1?transaction_id=t',
        checkout: null,
        downloads: [{ name: 'a"b', url: 'https://cdn.example/k/a.pdf', expires: false }],
      },
    });
    const email = new EmailRenderer().render(escaped);
    expect(email.subject).toBe('Your receipt from Tom & <b>Jerry</b> Bcc: x@evil.example: order ORD-1');
    expect(email.html).toContain('Tom &amp; &lt;b&gt;Jerry&lt;/b&gt;');
    expect(email.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(email.html).not.toContain('<script');
    expect(email.html).toContain('1,234.56 MZN');
    expect(email.text).toContain('Paid: 1,234.56 MZN');
    expect(email.text).toContain('- a"b: https://cdn.example/k/a.pdf');
    expect(email.text).not.toMatch(/\n{3,}/);
  });

  it('shows each value as one line of the plain-text part: a name cannot start lines of its own', () => {
    const oneLine = message({
      store: { id: 1, name: 'S', brand: 'Loja\r\nBcc: x@evil.example', test: false },
      customer: {
        name: 'Ana\r\nBcc: victim@evil.example\u2028X',
        email: 'a@example.com',
        mobileNumber: '+258841234567',
      },
      order: { ...message({}).order, number: 'ORD-2', items: [{ name: 'Line one\nLine two', amount: 100 }] },
      product: { name: 'Line one\nLine two' },
    });
    const { text } = new EmailRenderer().render(oneLine);
    const lines = text.split('\n');
    expect(lines).toContain('Hello Ana Bcc: victim@evil.example X,');
    expect(lines).toContain('Line one Line two: 1.00 MZN');
    expect(lines[0]).toBe('Loja Bcc: x@evil.example');
    expect(lines.filter((line) => line.startsWith('Bcc:'))).toEqual([]);
  });

  it('a receipt without download links (refunded before it went, or no files) promises none', () => {
    const without = new EmailRenderer().render(message({}));
    for (const part of [without.text, without.html]) {
      expect(part).not.toContain('downloads');
      expect(part).not.toContain('24 hours');
      expect(part).toContain('View your order');
    }
    const withFiles = new EmailRenderer().render(
      message({
        links: {
          ...message({}).links,
          downloads: [{ name: 'Guide', url: 'https://pay.example/download/x', expires: true }],
        },
      }),
    );
    for (const part of [withFiles.text, withFiles.html]) {
      expect(part).toContain('View your order and downloads');
      expect(part).toContain('Download links work for 24 hours');
    }
    // The seller's own links (a link file) do not expire: the receipt lists them and promises nothing of 24 hours.
    const withLinks = new EmailRenderer().render(
      message({
        links: {
          ...message({}).links,
          downloads: [{ name: 'Lesson 1', url: 'https://videos.example.com/1', expires: false }],
        },
      }),
    );
    for (const part of [withLinks.text, withLinks.html]) {
      expect(part).toContain('View your order and downloads');
      expect(part).toContain('https://videos.example.com/1');
      expect(part).not.toContain('24 hours');
    }
  });

  it('a subscription cancelled for the end of its period is cancelled as of that end, though swept later', () => {
    const plan = { name: 'Monthly', interval: 'month', intervalCount: 1 };
    const cancelled = (cancelAtPeriodEnd: boolean) =>
      message({
        id: 'subscription_cancelled.subscription-1',
        kind: 'subscription_cancelled',
        plan,
        subscription: {
          status: 'cancelled',
          endDate: new Date('2026-12-29T10:00:00Z'),
          cancelledAt: new Date('2026-12-01T00:00:00Z'),
          cancelAtPeriodEnd,
        },
        occurredAt: '2026-12-30T00:00:00.000Z',
      });
    const atPeriodEnd = new EmailRenderer().render(cancelled(true));
    expect(atPeriodEnd.text).toContain('is cancelled as of 2026-12-29.');
    expect(atPeriodEnd.html).toContain('is cancelled as of 2026-12-29.');
    // Cancelled at once (a past-due one too, its period already over): as of the event.
    const atOnce = new EmailRenderer().render(cancelled(false));
    expect(atOnce.text).toContain('is cancelled as of 2026-12-30.');
  });
});
