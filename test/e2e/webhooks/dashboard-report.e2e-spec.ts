import { SellersService } from '../../../src/modules/identity/sellers/sellers.service';
import { ApiKeysService } from '../../../src/modules/identity/api-keys/api-keys.service';
import { createTestApp, TestApp } from '../../utils/test-app';
import { signUp, webAgent } from '../identity/support/web';
import { emitOrderEvent, insertProduct, Receiver, startReceiver, waitUntil } from './helpers';

describe('dashboard: webhook delivery report (GET {web_url}/webhooks)', () => {
  let t: TestApp;
  let receiver: Receiver;

  beforeAll(async () => {
    t = await createTestApp();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  it('sends a logged-out visitor to the login page and back', async () => {
    const res = await t.http.get('/web/webhooks').expect(303);
    expect(res.headers.location).toContain('/web/login');
    expect(decodeURIComponent(res.headers.location)).toContain('/web/webhooks');
  });

  it("lists each of the seller's webhooks with its deliveries: payload, response code and body", async () => {
    const agent = webAgent(t);
    const { email } = await signUp(agent);
    const seller = await t.app.get(SellersService).findByEmail(email);
    const store = await t.app.get(SellersService).findStoreOfSeller(seller!.id);
    const { token } = await t.app
      .get(ApiKeysService)
      .create({ storeId: store!.id, sellerId: seller!.id, name: 'ci', scopes: ['webhooks.read', 'webhooks.write'] });
    receiver.respond((_req, res) => res.writeHead(500).end('receiver exploded'));
    const created = await t.http
      .post('/v1/webhooks')
      .set('Authorization', `Bearer ${token}`)
      .send({ url: receiver.url, events: ['order_approved'], name: 'Fulfilment' })
      .expect(201);

    const product = await insertProduct(t.dataSource, store!.id);
    const { payload } = await emitOrderEvent(t.dataSource, t.app, {
      kind: 'order_approved',
      storeId: store!.id,
      product,
    });
    await receiver.waitFor(1);
    await waitUntil(
      async () => {
        const res = await t.http.get(`/v1/webhooks/${created.body.webhook.id}`).set('Authorization', `Bearer ${token}`);
        return res.body.webhook?.summary?.last_delivery_status === 'failed';
      },
      15_000,
      () => 'the failed delivery to be recorded',
    );

    const page = await agent.get('/web/webhooks').expect(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.text).toContain('Fulfilment');
    expect(page.text).toContain(`data-testid="webhook-${created.body.webhook.id}"`);
    expect(page.text).toContain(payload.order_number);
    expect(page.text).toContain('HTTP 500');
    expect(page.text).toContain('receiver exploded');
    // The payload is shown HTML-escaped.
    expect(page.text).toContain('&quot;order_type&quot;: &quot;order_approved&quot;');
  });

  it("never shows another store's webhooks", async () => {
    const agent = webAgent(t);
    await signUp(agent);
    const page = await agent.get('/web/webhooks').expect(200);
    expect(page.text).toContain('No webhooks yet.');
    expect(page.text).not.toContain('Fulfilment');
  });
});
