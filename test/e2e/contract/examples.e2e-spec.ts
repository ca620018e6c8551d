import { seedDemoStore } from '../../../src/cli/commands/seed-demo.command';
import { DEMO } from '../../../src/modules/demo';
import { createTestApp, TestApp } from '../../utils/test-app';

jest.setTimeout(180_000);

/** Every operation, in an order in which each example can run ("Try it out" one after the other). */
const ORDER = [
  // reads
  'health_check',
  'user_me',
  'scopes_list',
  'products_list',
  'products_get',
  'product_files_list',
  'plans_list',
  'plans_get',
  'plans_subscribers',
  'order_bumps_list',
  'orders_list',
  'orders_get',
  'customers_list',
  'customers_get',
  'customers_orders',
  'subscriptions_list',
  'subscriptions_get',
  'discounts_list',
  'discounts_get',
  'webhooks_list',
  'webhooks_get',
  'webhooks_deliveries',
  'affiliates_list',
  'affiliates_get',
  'reports_sales',
  'downloads_list',
  'licenses_list',
  'licenses_get',
  // creates
  'products_create',
  'product_files_create',
  'plans_create',
  'plans_create_alias1',
  'order_bumps_create',
  'orders_create',
  'discounts_create',
  'webhooks_create',
  'affiliates_create',
  // changes
  'products_update',
  'plans_update',
  'discounts_update',
  'webhooks_update',
  'products_publish',
  'orders_refund',
  'subscriptions_cancel',
  'webhooks_test',
  'webhooks_redeliver',
  'downloads_reset',
  // the demo's license key: disabled and enabled again, then an instance activated; the key checked
  'licenses_disable',
  'licenses_enable',
  'public_licenses_activate',
  'public_licenses_validate',
  // deletes
  'public_licenses_deactivate',
  'product_files_delete',
  'order_bumps_remove',
  'plans_delete',
  'products_delete',
  'discounts_delete',
  'webhooks_remove',
  'affiliates_remove',
];

/**
 * No example can hold what these need: a code or token of a real OAuth grant, a gateway's signature,
 * a test key (`DELETE /v1/test-data` refuses the demo key, a live one, by design: README, *Test mode*).
 */
const WITHOUT_RUNNABLE_EXAMPLE = ['oauth_token_token', 'oauth_token_revoke', 'payments_callback', 'test_data_reset'];

type Operation = { method: string; path: string; op: any };

function operations(doc: any): Map<string, Operation> {
  const out = new Map<string, Operation>();
  for (const [path, item] of Object.entries<any>(doc.paths))
    for (const [method, op] of Object.entries<any>(item)) out.set(op.operationId, { method, path, op });
  return out;
}

/** The requests Swagger UI's "Try it out" sends for an operation as its examples stand (one per body example). */
function requestsOf({ method, path, op }: Operation) {
  let url = path;
  const query: Record<string, unknown> = {};
  for (const p of op.parameters ?? []) {
    const value = p.example ?? (p.examples ? (Object.values<any>(p.examples)[0] as any).value : undefined);
    if (p.in === 'path') {
      if (value === undefined) throw new Error(`${op.operationId}: no example for path parameter ${p.name}`);
      url = url.replace(`{${p.name}}`, encodeURIComponent(String(value)));
    } else if (p.in === 'query' && value !== undefined) query[p.name] = value;
  }
  const content = op.requestBody?.content ?? {};
  const [type, media] = (Object.entries<any>(content)[0] ?? [null, null]) as [string | null, any];
  const bodies: Array<{ name: string; body: unknown }> = !media
    ? [{ name: '', body: undefined }]
    : media.example !== undefined
      ? [{ name: '', body: media.example }]
      : media.examples
        ? Object.entries<any>(media.examples).map(([name, e]) => ({ name, body: e.value }))
        : [];
  if (media && !bodies.length) throw new Error(`${op.operationId}: no request body example`);
  return bodies.map(({ name, body }) => ({
    label: `${op.operationId}${name ? ` (${name})` : ''}`,
    method,
    url,
    query,
    type,
    body,
  }));
}

/** The description's request examples run as they stand against the demo store. */
describe('request examples of the OpenAPI description, against the demo store', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  async function runAll(apiKey: string): Promise<string[]> {
    const doc = (await t.http.get('/docs-json').expect(200)).body;
    const ops = operations(doc);
    expect([...ops.keys()].filter((id) => !ORDER.includes(id) && !WITHOUT_RUNNABLE_EXAMPLE.includes(id))).toEqual([]);
    const failures: string[] = [];
    for (const id of ORDER) {
      for (const r of requestsOf(ops.get(id)!)) {
        let req = (t.http as any)[r.method](r.url).query(r.query).set('Authorization', `Bearer ${apiKey}`);
        if (r.type === 'multipart/form-data') {
          for (const [field, value] of Object.entries(r.body as Record<string, string>)) req = req.field(field, value);
        } else if (r.body !== undefined) req = req.send(r.body);
        const res = await req;
        if (res.status < 200 || res.status > 299)
          failures.push(`${r.label}: ${r.method.toUpperCase()} ${r.url} → ${res.status} ${JSON.stringify(res.body)}`);
      }
    }
    return failures;
  }

  it('every operation with an example answers 2xx with the demo key, and again after seed:demo runs again', async () => {
    const first = await seedDemoStore(t.app, null);
    expect(first).toMatchObject({
      seller: { email: DEMO.sellerEmail, password: expect.any(String) },
      product_pid: 'prod_demo_guide',
      recurring_product_pid: 'prod_demo_club',
      plan_id: 'plan_demo_monthly',
      discount_code: 'WELCOME10',
      license: {
        product_pid: 'prod_demo_toolkit',
        id: expect.any(Number),
        key: expect.stringMatching(/^[A-Z2-7-]{23}$/),
      },
    });
    const doc = (await t.http.get('/docs-json').expect(200)).body;
    const activate = doc.paths['/v1/licenses/activate'].post.requestBody.content['application/json'].example;
    expect(activate.license_key).toBe(first.license!.key);
    expect(await runAll(first.api_key)).toEqual([]);

    // Idempotent: the same store, a fresh key, and the examples run again.
    const second = await seedDemoStore(t.app, null);
    expect(second.store_id).toBe(first.store_id);
    expect(second.seller.password).toBeNull();
    expect(second.api_key).not.toBe(first.api_key);
    expect(second.license).toEqual(first.license);
    expect(await runAll(second.api_key)).toEqual([]);
  });

  it('leaves Idempotency-Key without an example, so Swagger UI sends none', async () => {
    const doc = (await t.http.get('/docs-json').expect(200)).body;
    const keys = [...operations(doc).values()].flatMap(({ op }) =>
      (op.parameters ?? []).filter((p: any) => p.name === 'Idempotency-Key'),
    );
    expect(keys.length).toBeGreaterThan(10);
    for (const p of keys) {
      expect(p.example).toBeUndefined();
      expect(p.examples).toBeUndefined();
      expect(p.schema?.example).toBeUndefined();
    }
  });

  it('the demo product has a real image and a real upload, both served by the service itself', async () => {
    const seed = await seedDemoStore(t.app, null);
    const auth = { Authorization: `Bearer ${seed.api_key}` };
    const product = (await t.http.get('/v1/products/prod_demo_guide').set(auth).expect(200)).body.product;
    const image = new URL(product.image_url);
    expect(image.origin).toBe(new URL(t.config.urls.pay).origin);
    const svg = await t.http.get(image.pathname).expect(200);
    expect(svg.headers['content-type']).toMatch(/^image\/svg\+xml/);
    // Each demo product has a cover of its own, naming it.
    for (const pid of ['prod_demo_club', 'prod_demo_checklist', 'prod_demo_toolkit']) {
      const other = (await t.http.get(`/v1/products/${pid}`).set(auth).expect(200)).body.product;
      const cover = await t.http.get(new URL(other.image_url).pathname).expect(200);
      expect(cover.headers['content-type']).toMatch(/^image\/svg\+xml/);
      expect(Buffer.from(cover.body).toString('utf8')).toContain(`aria-label="${other.name}"`);
    }
    await t.http.get('/pay/assets/nothing.svg').expect(404);
    const files = (await t.http.get('/v1/products/prod_demo_guide/files').set(auth).expect(200)).body;
    const upload =
      (files.files ?? files.data).find((f: any) => f.kind === 'upload' || f.type === 'upload') ??
      (files.files ?? files.data)[0];
    const link = new URL(upload.link ?? upload.url);
    expect(link.origin).toBe(new URL(t.config.urls.cdn).origin);
    const download = await t.http.get(link.pathname).expect(200);
    expect(download.text).toContain('Digital Marketing Guide');
  });

  it("keeps the examples' webhooks inactive, so the demo's orders send them nothing; --webhook-url adds an active one", async () => {
    const seed = await seedDemoStore(t.app, 'http://127.0.0.1:9/quick-start');
    const auth = { Authorization: `Bearer ${seed.api_key}` };
    const body = (await t.http.get('/v1/webhooks').set(auth).expect(200)).body;
    const byName = new Map<string, any>((body.webhooks ?? body.data).map((w: any) => [w.name, w]));
    expect(byName.get('Demo webhook')?.status).toBe('inactive');
    expect(byName.get('Quick start webhook')?.status).toBe('active');
    // An example that turned one on is put back by the next seed.
    await t.http
      .patch(`/v1/webhooks/${byName.get('Demo webhook').id}`)
      .set(auth)
      .set('Idempotency-Key', 'turn-on')
      .send({ status: 'active' })
      .expect(200);
    await seedDemoStore(t.app, null);
    const again = (
      await t.http
        .get(`/v1/webhooks/${byName.get('Demo webhook').id}`)
        .set(auth)
        .expect(200)
    ).body;
    expect((again.webhook ?? again.data).status).toBe('inactive');
  });
});
