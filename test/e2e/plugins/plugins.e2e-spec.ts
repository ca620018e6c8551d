import { Controller, Get, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOkResponse, type ApiResponseNoStatusOptions } from '@nestjs/swagger';
import type { Response } from 'supertest';
import { ChatNotifierPlugin } from '../../../examples/chat-notifier/chat-notifier.plugin';
import { MemoryFileStorage, MemoryStoragePlugin } from '../../../examples/memory-storage/memory-storage.plugin';
import { Test } from '@nestjs/testing';
import { contributionsOf } from '../../../src/common/plugins/contributions';
import { APP_CONFIG } from '../../../src/config/config.module';
import { NotificationChannels } from '../../../src/modules/notifications/channels/notification-channel';
import { EmailChannel } from '../../../src/modules/notifications/email/email.channel';
import { EmailRenderer } from '../../../src/modules/notifications/email/email-renderer';
import { SellerMail } from '../../../src/modules/identity/password-reset/seller-mail';
import {
  Contributions,
  definePlugin,
  JobQueue,
  KeepRawBody,
  type NotificationChannel,
  Public,
  type RequestWithRawBody,
} from '../../../src/plugins';
import { checkoutOf, customerBody, sellerApi } from '../../factories/api';
import { createSeller, TestSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';
import { Receiver, startReceiver, waitUntil } from '../webhooks/helpers';

const RAW_ECHO: ApiResponseNoStatusOptions = {
  schema: { type: 'object', required: ['raw'], properties: { raw: { oneOf: [{ type: 'string' }, { type: 'null' }] } } },
};

/** A plugin of this test: two public routes, one of them keeping the raw body. */
@Controller('v1/raw-echo')
class RawEchoController {
  @Post('kept')
  @Public()
  @KeepRawBody()
  @HttpCode(200)
  @ApiOkResponse(RAW_ECHO)
  kept(@Req() req: RequestWithRawBody): { raw: string | null } {
    return { raw: req.rawBody?.toString('utf8') ?? null };
  }

  @Post('dropped')
  @Public()
  @HttpCode(200)
  @ApiOkResponse(RAW_ECHO)
  dropped(@Req() req: RequestWithRawBody): { raw: string | null } {
    return { raw: req.rawBody?.toString('utf8') ?? null };
  }

  @Get()
  @Public()
  ping(): { status: string } {
    return { status: 'success' };
  }
}

const binaryParser = (res: Response, done: (err: Error | null, body: Buffer) => void) => {
  const stream = res as unknown as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  stream.on('end', () => done(null, Buffer.concat(chunks)));
};

/**
 * The plugins of examples/ (outside src/), built into the app the way a deployment adds them: each
 * extension kind works end to end without a change to core.
 */
describe('plugins from outside core', () => {
  let t: TestApp;
  let chat: Receiver;
  let hooks: Receiver;
  let seller: TestSeller;
  const storage = new MemoryFileStorage();

  beforeAll(async () => {
    chat = await startReceiver('/chat');
    hooks = await startReceiver('/hooks');
    t = await createTestApp({
      env: { STORAGE_DRIVER: 'memory' },
      plugins: [
        ChatNotifierPlugin.register({ webhookUrl: chat.url }),
        MemoryStoragePlugin.register(storage),
        definePlugin({ name: 'raw-echo', controllers: [RawEchoController] }),
      ],
    });
    seller = await createSeller(t);
  });
  afterAll(async () => {
    await t?.close();
    await chat?.close();
    await hooks?.close();
  });

  const chatTexts = () => chat.requests.map((r) => (JSON.parse(r.body) as { text: string }).text);

  describe('scope and route', () => {
    it('lists the plugin scope with its route in GET /v1/scopes', async () => {
      const res = await t.http.get('/v1/scopes').set(seller.auth).expect(200);
      expect(res.body.scopes).toContainEqual({
        scope: 'chat.write',
        description: "Send test messages to the store's chat.",
        endpoints: ['POST /v1/chat/test'],
      });
      // The seller's key holds every scope of the app, the plugin's included.
      expect(res.body.granted_scopes).toContain('chat.write');
    });

    it('guards the plugin route with its scope, like a core route', async () => {
      await t.http.post('/v1/chat/test').expect(401);
      const without = await seller.tokenWith(['orders.read']);
      const res = await t.http
        .post('/v1/chat/test')
        .set({ Authorization: `Bearer ${without}` })
        .expect(403);
      expect(res.body.status).toBe('error');
    });

    it('grants the plugin scope to an API key and refuses a scope nobody registered', async () => {
      expect(await seller.tokenWith(['chat.write'])).toMatch(/^sk_/);
      await expect(seller.tokenWith(['chat.read'])).rejects.toThrow();
    });

    it('documents the route in OpenAPI', async () => {
      const doc = (await t.http.get('/docs-json').expect(200)).body;
      expect(doc.paths['/v1/chat/test'].post).toBeDefined();
    });
  });

  describe('event listener (after commit)', () => {
    it("posts to the chat when an order is approved, with the order's number and amount", async () => {
      const api = sellerApi(t.http, seller.auth);
      const product = await api.product({ name: 'Ebook', price: 100 });
      const order = await api.order({
        amount: 100,
        product_pid: product.pid,
        customer: customerBody('ana@example.com'),
      });
      expect(await checkoutOf(t.http, order).pay({ payment_number: '841234567' })).toBe('approved');
      await waitUntil(
        () => chatTexts().some((text) => text.includes(order.order_number)),
        15_000,
        () => JSON.stringify(chatTexts()),
      );
      expect(chatTexts()).toContain(`Order ${order.order_number} approved: 100.00 MZN (Ebook).`);
    });
  });

  describe('webhook event kind', () => {
    it('is accepted on a webhook, and an unknown kind is refused with every kind listed', async () => {
      const bad = await t.http
        .post('/v1/webhooks')
        .set(seller.auth)
        .send({ url: hooks.url, events: ['chat_tset'] })
        .expect(422);
      expect(bad.body.errors.events).toEqual([
        'events must be among order_approved, order_cancelled, order_refund, subscription_past_due, subscription_cancelled, subscription_expired, chat_test.',
      ]);
      await t.http
        .post('/v1/webhooks')
        .set(seller.auth)
        .send({ url: hooks.url, events: ['chat_test'] })
        .expect(201);
    });

    it('is listed in the OpenAPI enum of webhook events', async () => {
      const doc = (await t.http.get('/docs-json').expect(200)).body;
      expect(doc.components.schemas.CreateWebhookDto.properties.events.items.enum).toEqual([
        'order_approved',
        'order_cancelled',
        'order_refund',
        'subscription_past_due',
        'subscription_cancelled',
        'subscription_expired',
        'chat_test',
      ]);
    });

    it("is delivered with the plugin's payload when the plugin route publishes its event; the chat hears it after commit", async () => {
      const before = chat.requests.length;
      const res = await t.http.post('/v1/chat/test').set(seller.auth).expect(202);
      const eventId = res.body.event_id as string;
      const [delivery] = await hooks.waitFor(1);
      expect(JSON.parse(delivery.body)).toEqual({
        event_type: 'chat_test',
        event_id: eventId,
        store_id: seller.storeId,
        requested_at: expect.stringMatching(/Z$/),
      });
      expect(delivery.headers['webhook-signature']).toMatch(/^v1,/);
      await chat.waitFor(before + 1);
      expect(chatTexts()[before]).toBe('Test message from the commerce API.');

      const list = await t.http.get('/v1/webhooks').set(seller.auth).expect(200);
      const webhookId = list.body.webhooks[0].id as number;
      const deliveries = await t.http.get(`/v1/webhooks/${webhookId}/deliveries`).set(seller.auth).expect(200);
      expect(deliveries.body.deliveries[0]).toMatchObject({ event: 'chat_test', order_id: null, status: 'success' });
    });
  });

  describe('storage driver', () => {
    it('stores uploads with the driver STORAGE_DRIVER names, and the CDN serves them from it', async () => {
      const api = sellerApi(t.http, seller.auth);
      const product = await api.product({ name: 'Guide', price: 50 });
      const content = Buffer.from('the bytes of the guide');
      const res = await t.http
        .post(`/v1/products/${product.pid}/files`)
        .set(seller.auth)
        .attach('file', content, { filename: 'guide.txt', contentType: 'text/plain' })
        .expect(201);
      const link = res.body.file.link as string;
      const key = link.split('/').slice(-2)[0];
      expect(storage.objects.get(key)?.bytes).toEqual(content);
      const download = await t.http
        .get(link.slice(t.config.urls.base.length))
        .buffer(true)
        .parse(binaryParser)
        .expect(200);
      expect(download.body).toEqual(content);
    });
  });

  describe('notification channel', () => {
    it("is offered beside email, and each customer message reaches the chat once, with the message's facts only", async () => {
      expect(
        t.app
          .get(NotificationChannels)
          .all()
          .map((c) => c.name),
      ).toEqual(['chat', 'email']);
      const shop = await createSeller(t, { brand: 'Livros & Cia' });
      const api = sellerApi(t.http, shop.auth);
      const product = await api.product({ name: 'Atlas', price: 75.5 });
      const order = await api.order({
        amount: 75.5,
        product_pid: product.pid,
        customer: customerBody('bia@example.com', { name: 'Bia <!channel>' }),
      });
      expect(await checkoutOf(t.http, order).pay({ payment_number: '841234567' })).toBe('approved');

      const receipt = `Receipt for Bia &lt;!channel&gt;: order ${order.order_number}, 75.50 MZN (Livros &amp; Cia).`;
      const receipts = () => chatTexts().filter((text) => text.includes(`order ${order.order_number},`));
      await waitUntil(
        () => receipts().length > 0,
        15_000,
        () => JSON.stringify(chatTexts()),
      );
      expect(receipts()).toEqual([receipt]);

      // Recorded per channel, with what each reached.
      const [{ id }] = await t.dataSource.query('SELECT id FROM orders WHERE order_number = $1', [order.order_number]);
      const rows = async () =>
        (await t.dataSource.query(
          `SELECT channel, state, attempts, recipient FROM customer_messages WHERE order_id = $1 ORDER BY channel`,
          [id],
        )) as Array<{ channel: string; state: string; attempts: number; recipient: string }>;
      await waitUntil(async () => (await rows()).every((r) => r.state === 'sent') && (await rows()).length === 2);
      expect(await rows()).toEqual([
        { channel: 'chat', state: 'sent', attempts: 1, recipient: 'chat' },
        { channel: 'email', state: 'sent', attempts: 1, recipient: 'bia@example.com' },
      ]);

      // The same event's job once more (a duplicate delivery): it finds both messages sent and posts nothing.
      const [{ data: event }] = await t.dataSource.query(
        `SELECT data FROM pgboss.job WHERE name = 'event:customer-emails' AND (data->'refs'->>'orderId')::int = $1`,
        [id],
      );
      await t.app.get(JobQueue).send('event:customer-emails', event);
      await waitUntil(async () => {
        const [{ done }] = await t.dataSource.query(
          `SELECT count(*)::int AS done FROM pgboss.job WHERE name = 'event:customer-emails' AND data->>'id' = $1 AND state = 'completed'`,
          [event.id],
        );
        return done === 2;
      });
      expect(receipts()).toEqual([receipt]);
      expect((await rows()).map((r) => r.attempts)).toEqual([1, 1]);
    });

    it('stops start-up when two channels have one name, naming where each came from', async () => {
      const channel = (name: string): NotificationChannel => ({ name, send: async () => ({ outcome: 'sent' }) });
      /** The notifications module's channel providers, started with these plugins' contributions. */
      const start = async (...plugins: ReturnType<typeof definePlugin>[]) => {
        const module = await Test.createTestingModule({
          providers: [
            NotificationChannels,
            EmailChannel,
            EmailRenderer,
            SellerMail,
            { provide: APP_CONFIG, useValue: t.config },
            { provide: Contributions, useValue: new Contributions(plugins.flatMap((p) => contributionsOf(p))) },
          ],
        }).compile();
        try {
          await module.init();
        } finally {
          await module.close();
        }
      };
      await expect(
        start(
          definePlugin({ name: 'chat-a', notificationChannels: [channel('chat')] }),
          definePlugin({ name: 'chat-b', notificationChannels: [channel('chat')] }),
        ),
      ).rejects.toThrow('Notification channel chat is registered twice: by plugin chat-a and by plugin chat-b.');
      // The built-in channel registers from its onModuleInit: a plugin cannot take its name either.
      await expect(start(definePlugin({ name: 'mailer', notificationChannels: [channel('email')] }))).rejects.toThrow(
        'Notification channel email is registered twice: by plugin mailer and by provider EmailChannel.',
      );
      await expect(start(definePlugin({ name: 'shout', notificationChannels: [channel('SMS!')] }))).rejects.toThrow(
        'Notification channel "SMS!" of plugin shout: a name is a lower-case word of at most 32 characters.',
      );
      await expect(
        start(definePlugin({ name: 'sms', notificationChannels: [channel('sms')] })),
      ).resolves.toBeUndefined();
    });
  });

  describe('raw body, per route', () => {
    it('is kept only on a route marked @KeepRawBody()', async () => {
      const body = '{"b": 1,  "a":2}';
      const kept = await t.http
        .post('/v1/raw-echo/kept')
        .set('Content-Type', 'application/json')
        .send(body)
        .expect(200);
      expect(kept.body).toEqual({ raw: body });
      const dropped = await t.http
        .post('/v1/raw-echo/dropped')
        .set('Content-Type', 'application/json')
        .send(body)
        .expect(200);
      expect(dropped.body).toEqual({ raw: null });
    });
  });
});
