import type { FastifyInstance, RouteOptions } from 'fastify';
import { App, createApp, ready } from '../../../src/app.factory';
import { loadConfig } from '../../../src/config/app-config';
import { DatabaseConnection } from '../../../src/database/database-connection';
import { createSeller, TestSeller } from '../../utils/auth';
import { createTestDatabase, TestDatabase } from '../../utils/test-database';
import { TestClock } from '../../utils/test-clock';

/*
 * Generated hostile input over every route the application registers (bad input never
 * reaches a 5xx). The route list comes from Fastify's own registrations, so a new route is fuzzed
 * without touching this file; request bodies start from the operation's OpenAPI schema (when it
 * has one) and get junk at random paths. The generator is seeded: a failure names the seed and
 * the request, and re-running reproduces it.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20240518);
const ROUNDS = Number(process.env.FUZZ_ROUNDS ?? 60);

/** mulberry32: small, fast, good enough to spread the cases. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Route {
  method: string;
  url: string;
}

interface Sent {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Schema = {
  $ref?: string;
  type?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  example?: unknown;
  enum?: unknown[];
  allOf?: Schema[];
  oneOf?: Schema[];
};

const JUNK_STRINGS = [
  '',
  ' ',
  'a',
  '\u0000',
  'ab\u0000cd',
  '\ud800',
  'x\udc00y',
  '\udbff\ud800',
  '\ud83d\ude00',
  'é'.repeat(70),
  'x'.repeat(256),
  'x'.repeat(5000),
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  '../../../etc/passwd',
  '%00',
  '0',
  '-1',
  '1.5',
  '2147483647',
  '2147483648',
  '-2147483649',
  '99999999999999999999',
  '1e309',
  'NaN',
  'Infinity',
  'true',
  'null',
  '2024-02-30T25:61:00Z',
  '2099-01-01T00:00:00Z',
  '1970-01-01T00:00:00Z',
  'https://example.com/x',
  'http://127.0.0.1:1/hook',
  'javascript:alert(1)',
  'a@b.co',
  '+258841234567',
  'prd_nope',
  'pln_nope',
  'ORD-NOPE',
  'month',
  'percent',
  'one_time',
  'recurring',
  'approved',
  'order_approved',
  'orders.read orders.write',
  'authorization_code',
  'refresh_token',
];

const JUNK_NUMBERS = [
  0,
  -0,
  1,
  -1,
  10,
  0.5,
  100.123,
  1500,
  2147483647,
  2147483648,
  -2147483649,
  4294967296,
  2 ** 53,
  2 ** 63,
  1e21,
  1e308,
  -1e308,
  5e-324,
  1e-7,
  9999999999.99,
  10000000000,
];

/** Literal JSON that JSON.stringify cannot produce: numbers past a double, deep nesting. */
const RAW_NUMBERS = ['1e309', '-1e309', '123456789012345678901234567890', '0.0000000000000000000000001', '1E400'];

const PATH_JUNK = [
  '%00',
  'a%00b',
  '1%00',
  '%FF',
  '%C3%28',
  '%ED%A0%80',
  '%E0%80%80',
  '0',
  '-1',
  '1.5',
  '2147483647',
  '2147483648',
  '99999999999999999999',
  '1e309',
  '%20',
  'x'.repeat(900),
  '..%2F..%2Fetc',
  '%25',
  'null',
  'prd_nope',
  '%F0%9F%98%80',
  "'",
];

const QUERY_KEYS = [
  'page',
  'per_page',
  'status',
  'product',
  'customer',
  'email',
  'plan',
  'next',
  'client_id',
  'redirect_uri',
  'scope',
  'state',
  'response_type',
  'code_challenge',
  'code_challenge_method',
  'transaction_id',
  'utm_source',
  'utm_campaign',
];
const QUERY_JUNK = [
  '99999999999999999999',
  '2147483648',
  '2147483647',
  '1e309',
  '-1',
  '0',
  '1.5',
  'abc',
  '',
  '%00',
  '%FF',
  '%ED%A0%80',
  'x'.repeat(3000),
  '1',
  '100',
  '101',
];

describe('generated hostile input over every route', () => {
  let database: TestDatabase;
  let app: App;
  let fastify: FastifyInstance;
  const routes: Route[] = [];
  let seller: TestSeller;
  let openapi: {
    paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: Schema }> } }>>;
    components: { schemas: Record<string, Schema> };
  };
  const known: Record<string, string[]> = {};
  let webCookie = '';
  let webCsrf = '';

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = loadConfig({
      NODE_ENV: 'test',
      PORT: '3000',
      BASE_URL: 'http://127.0.0.1:3000',
      DATA_DIR: `/tmp/commerce-fuzz-${process.pid}`,
      RATE_LIMIT_PER_MINUTE: '100000000',
      DATABASE_URL: database.url,
    });
    const connection = await DatabaseConnection.open(config);
    app = await createApp(config, connection, { clock: new TestClock() });
    fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
    // Every route registered from here on (all of Nest's controllers) is recorded as it is added.
    fastify.addHook('onRoute', (route: RouteOptions) => {
      for (const method of [route.method].flat()) {
        if (method !== 'HEAD' && method !== 'OPTIONS') routes.push({ method, url: route.url });
      }
    });
    await ready(app);
    openapi = JSON.parse((await fastify.inject({ method: 'GET', url: '/docs-json' })).body);
    await seed();
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  async function api(method: string, url: string, body?: unknown): Promise<Record<string, any>> {
    const res = await fastify.inject({
      method: method as 'POST',
      url,
      headers: { authorization: `Bearer ${seller.token}`, 'content-type': 'application/json' },
      payload: body === undefined ? undefined : JSON.stringify(body),
    });
    if (res.statusCode >= 300) throw new Error(`${method} ${url} answered ${res.statusCode}: ${res.body}`);
    return JSON.parse(res.body);
  }

  /** Real rows, so that valid ids reach the code behind the lookups. */
  async function seed(): Promise<void> {
    seller = await createSeller({ app });
    const product = (
      await api('POST', '/v1/products', {
        name: 'Guia',
        price: 1500,
        type: 'recurring',
        sale_page_url: 'https://example.com/guia',
        image_url: 'https://example.com/guia.png',
        category: 'Educação',
        subcategory: 'Marketing',
        contact_number: '+258841234567',
      })
    ).product;
    const other = (await api('POST', '/v1/products', { name: 'Bónus', price: 200 })).product;
    const file = (
      await api('POST', `/v1/products/${product.id}/files`, { name: 'Aula', link: 'https://videos.example.com/a' })
    ).file;
    const plan = (
      await api('POST', '/v1/plans', { product_pid: product.pid, name: 'Mensal', price: 500, interval: 'month' })
    ).plan;
    const discount = (await api('POST', '/v1/discounts', { code: 'FUZZ10', type: 'percent', value: 10 })).discount;
    const affiliate = (
      await api('POST', '/v1/affiliates', { name: 'Aff', email: 'aff@example.com', commission_percent: 10 })
    ).affiliate;
    const webhook = (await api('POST', '/v1/webhooks', { url: 'http://127.0.0.1:1/hook', events: ['order_approved'] }))
      .webhook;
    const order = await api('POST', '/v1/orders', {
      amount: 500,
      product_pid: product.pid,
      plan_id: plan.plan_id,
      customer: { name: 'Ana', email: 'ana@example.com', mobile_number: '+258841234567' },
    });
    const orderView = (await api('GET', `/v1/orders/${order.order_number}`)).order;
    known.id = [
      String(product.id),
      product.pid,
      String(order.order_number),
      discount.code,
      String(discount.id),
      plan.plan_id,
      String(webhook.id),
      String(affiliate.id),
    ];
    known.file_id = [String(file.id)];
    known.delivery_id = ['1'];
    known.bump_id = ['1', String(other.id)];
    known.payToken = [order.pay_token];
    known.orderNumber = [order.order_number];
    known.provider = ['sandbox', 'stripe', 'mpesa'];
    known.customerId = [String(orderView.customer?.id ?? 1)];

    // A dashboard session, so that the pages behind the login are reached too.
    const signupPage = await fastify.inject({ method: 'GET', url: '/web/signup' });
    let cookie = cookieOf(signupPage.headers['set-cookie']);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(signupPage.body)?.[1] ?? '';
    const signedUp = await fastify.inject({
      method: 'POST',
      url: '/web/signup',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        name: 'Web',
        email: 'web-fuzz@example.com',
        password: 'a long enough password',
        store_name: 'S',
        _csrf: csrf,
      }).toString(),
    });
    cookie = cookieOf(signedUp.headers['set-cookie']) || cookie;
    const page = await fastify.inject({ method: 'GET', url: '/web/settings/api', headers: { cookie } });
    webCookie = cookie;
    webCsrf = /name="_csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
  }

  function cookieOf(header: string | string[] | undefined): string {
    return [header ?? []]
      .flat()
      .map((c) => c.split(';')[0])
      .join('; ');
  }

  function resolve(schema: Schema | undefined, depth = 0): Schema | undefined {
    if (!schema || depth > 8) return undefined;
    if (schema.$ref) return resolve(openapi.components.schemas[schema.$ref.split('/').pop()!], depth + 1);
    if (schema.allOf?.length) return resolve(schema.allOf[0], depth + 1);
    return schema;
  }

  function bodySchema(route: Route): Schema | undefined {
    const path = route.url.replace(/:(\w+)/g, '{$1}');
    const content = openapi.paths[path]?.[route.method.toLowerCase()]?.requestBody?.content;
    return resolve(content?.['application/json']?.schema ?? content?.['application/x-www-form-urlencoded']?.schema);
  }

  it('answers every request below 500', async () => {
    const random = prng(SEED);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
    const chance = (p: number) => random() < p;

    const junk = (depth = 0): Json => {
      const r = random();
      if (r < 0.45) return pick(JUNK_STRINGS);
      if (r < 0.75) return pick(JUNK_NUMBERS);
      if (r < 0.82) return pick([true, false, null]);
      if (depth > 2) return pick(JUNK_STRINGS);
      if (r < 0.9) return Array.from({ length: Math.floor(random() * 3) }, () => junk(depth + 1));
      return { [pick(['id', 'name', 'x', '__proto__', 'constructor'])]: junk(depth + 1) };
    };

    /** A plausible value of the schema: the example, an enum member or a type-shaped default. */
    const plausible = (schema: Schema | undefined, depth = 0): Json => {
      const s = resolve(schema);
      if (!s || depth > 4) return junk();
      if (s.properties) {
        const out: Record<string, Json> = {};
        for (const [key, property] of Object.entries(s.properties))
          if (chance(0.85)) out[key] = plausible(property, depth + 1);
        return out;
      }
      if (s.enum?.length) return s.enum[Math.floor(random() * s.enum.length)] as Json;
      if (s.example !== undefined) return s.example as Json;
      if (s.type === 'array') return [plausible(s.items, depth + 1)];
      if (s.type === 'integer' || s.type === 'number') return 1;
      if (s.type === 'boolean') return true;
      return 'x';
    };

    /** Replaces the value at one random path of `value` with junk. */
    const mutate = (value: Json): Json => {
      if (value && typeof value === 'object' && !Array.isArray(value)) {
        const keys = Object.keys(value);
        if (keys.length && chance(0.8)) {
          const key = pick(keys);
          return { ...value, [key]: chance(0.4) ? mutate(value[key]) : junk() };
        }
        return { ...value, [pick(['extra', 'id', 'store_id', '__proto__'])]: junk() };
      }
      if (Array.isArray(value) && value.length && chance(0.5))
        return value.map((item) => (chance(0.5) ? mutate(item) : item));
      return junk();
    };

    const deep = (depth: number, open: string, close: string) => open.repeat(depth) + close.repeat(depth);

    const jsonPayload = (route: Route): string => {
      const r = random();
      if (r < 0.05) return deep(pick([31, 32, 33, 40, 200, 5000, 100_000]), '[', ']');
      if (r < 0.08) return `{"a":${deep(pick([31, 33, 1000]), '{"a":', '}')}}`.replace(/\{"a":\}/, '{}');
      if (r < 0.1)
        return pick([
          '{',
          '[1,',
          '{"a":1,}',
          'nul',
          '"\\ud800"',
          '{"a":"\\u0000"}',
          '\u0000',
          '{"a":1}{"b":2}',
          '\ufeff{}',
        ]);
      const schema = bodySchema(route);
      let body: Json = schema ? plausible(schema) : { name: junk(), value: junk() };
      for (let i = Math.floor(random() * 3) + (schema ? 0 : 1); i > 0; i--) body = mutate(body);
      let text = JSON.stringify(body);
      // Numbers JSON.stringify cannot write, and nesting inside a field.
      if (chance(0.1)) text = text.replace(/:(-?\d+(?:\.\d+)?(?:e[+-]?\d+)?)([,}])/i, `:${pick(RAW_NUMBERS)}$2`);
      if (chance(0.05)) text = text.replace(/:("[^"]*"|-?\d+)([,}])/, `:${deep(pick([20, 40, 3000]), '[', ']')}$2`);
      return text;
    };

    const formPayload = (route: Route): string => {
      const schema = bodySchema(route);
      const keys = schema?.properties
        ? Object.keys(schema.properties)
        : [
            'name',
            'email',
            'password',
            'grant_type',
            'client_id',
            'client_secret',
            'code',
            'redirect_uri',
            'refresh_token',
            'token',
            'scopes',
            'decision',
            'payment_method',
            'payment_number',
            'redirect_uris',
            'store_name',
            'currency',
          ];
      const form = new URLSearchParams();
      for (const key of keys) if (chance(0.6)) form.append(key, String(pick(JUNK_STRINGS)));
      if (chance(0.3)) form.append(pick(keys), String(pick(JUNK_STRINGS)));
      if (chance(0.6)) form.append('_csrf', webCsrf);
      let text = form.toString();
      if (chance(0.2)) text += `&${pick(keys)}=${pick(['%00', '%FF', '%ED%A0%80', '%', '%zz', 'a%00b'])}`;
      return text;
    };

    const multipartPayload = (): { payload: Buffer; type: string } => {
      const boundary = `----fuzz${Math.floor(random() * 1e9)}`;
      const name = pick(['file', 'file', 'other', 'a\u0000b']);
      const filename = pick(['a.pdf', 'x'.repeat(300), '\u0000.pdf', '..%2f..%2fa', '', 'é.pdf']);
      const body = chance(0.2)
        ? ''
        : `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4 fuzz\r\n--${boundary}--\r\n`;
      return {
        payload: Buffer.from(chance(0.1) ? body.slice(0, Math.floor(body.length / 2)) : body, 'utf8'),
        type: `multipart/form-data; boundary=${boundary}`,
      };
    };

    /** Percent-encodes as a client would; a lone surrogate goes out as the UTF-8 bytes of one. */
    const encode = (text: string): string => {
      try {
        return encodeURIComponent(text);
      } catch {
        return '%ED%A0%80';
      }
    };

    const buildUrl = (route: Route): string => {
      let url = route.url.replace(/:(\w+)|\*/g, (_m, name: string | undefined) => {
        const valid = name ? known[name] : undefined;
        if (valid && chance(0.5)) return encodeURIComponent(pick(valid));
        return chance(0.8) ? pick(PATH_JUNK) : encode(String(pick(JUNK_STRINGS)));
      });
      if (chance(0.6)) {
        const parts: string[] = [];
        for (let i = Math.floor(random() * 3) + 1; i > 0; i--) {
          const value = chance(0.8) ? pick(QUERY_JUNK) : encode(String(pick(JUNK_STRINGS)));
          parts.push(`${pick(QUERY_KEYS)}=${value}`);
        }
        if (chance(0.05)) parts.push('page=1&page=2');
        url += `?${parts.join('&')}`;
      }
      return url;
    };

    const buildRequest = (route: Route): Sent => {
      const url = buildUrl(route);
      const headers: Record<string, string> = {};
      const isWeb = route.url.startsWith('/web') || route.url.startsWith('/pay');
      if (route.url.startsWith('/v1') && chance(0.92)) headers.authorization = `Bearer ${seller.token}`;
      else if (chance(0.1))
        headers.authorization = pick([
          'Bearer ',
          'Basic %%%',
          'Basic ' + Buffer.from('a\u0000:b').toString('base64'),
          'Bearer sk_' + 'x'.repeat(40),
        ]);
      if (isWeb && chance(0.85)) headers.cookie = webCookie;
      if (chance(0.3)) headers.accept = pick(['application/json', 'text/html', '*/*']);
      if (chance(0.15))
        headers['idempotency-key'] = pick(['k', 'x'.repeat(300), 'é', String(Math.floor(random() * 1e6))]);
      const sent: Sent = { method: route.method, url, headers };
      if (route.method === 'GET' || route.method === 'DELETE') {
        if (chance(0.9)) return sent;
      }
      const r = random();
      if (r < 0.7) {
        headers['content-type'] = 'application/json';
        sent.payload = jsonPayload(route);
      } else if (r < 0.88) {
        headers['content-type'] = 'application/x-www-form-urlencoded';
        sent.payload = formPayload(route);
      } else if (r < 0.96) {
        const multipart = multipartPayload();
        headers['content-type'] = multipart.type;
        sent.payload = multipart.payload;
      } else {
        headers['content-type'] = pick([
          'text/plain',
          'application/xml',
          'application/json; charset=latin1',
          'application/vnd.api+json',
        ]);
        sent.payload = pick(['hello', '<a/>', '{}', Buffer.from([0xff, 0xfe, 0x00, 0x7b])]) as string | Buffer;
      }
      return sent;
    };

    expect(routes.length).toBeGreaterThan(60);
    const failures: string[] = [];
    let sentCount = 0;
    for (let round = 0; round < ROUNDS; round++) {
      for (const route of routes) {
        const request = buildRequest(route);
        const res = await fastify.inject({
          method: request.method as 'GET',
          url: request.url,
          headers: request.headers,
          payload: request.payload,
        });
        sentCount++;
        if (res.statusCode >= 500) {
          const payload = request.payload === undefined ? '' : String(request.payload).slice(0, 300);
          failures.push(
            `${res.statusCode} ${request.method} ${request.url.slice(0, 200)} ${JSON.stringify(request.headers['content-type'] ?? '')} ${JSON.stringify(payload)}`,
          );
        }
      }
    }
    expect(sentCount).toBeGreaterThan(4000);
    expect(failures).toEqual([]);
  }, 120_000);
});
