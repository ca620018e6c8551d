import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { API_TAGS } from '../../../src/common/http/openapi-document';
import { ALL_SCOPES } from '../../../src/modules/identity/scopes';
import { createSeller } from '../../utils/auth';
import { ContractValidator, Exchange } from '../../utils/contract';
import { createTestApp, TestApp } from '../../utils/test-app';

jest.setTimeout(120_000);

const operationsOf = (doc: any) =>
  Object.entries<any>(doc.paths).flatMap(([path, item]) =>
    Object.entries<any>(item).map(([method, operation]) => ({ path, method, operation })),
  );

/** Every schema object of the description, with where it is. */
function* schemasOf(node: any, where = '#'): Generator<[string, any]> {
  if (!node || typeof node !== 'object') return;
  if (!Array.isArray(node) && ('type' in node || 'oneOf' in node || '$ref' in node || 'enum' in node))
    yield [where, node];
  for (const [key, value] of Object.entries(node))
    if (key !== 'example' && key !== 'examples') yield* schemasOf(value, `${where}/${key}`);
}

/** The description itself, as clients and their tools read it. */
describe('the OpenAPI description', () => {
  let t: TestApp;
  let doc: any;

  beforeAll(async () => {
    t = await createTestApp();
    doc = (await t.http.get('/docs-json').expect(200)).body;
  });
  afterAll(() => t.close());

  it('is OpenAPI 3.1 with bearer and an oauth2 authorization-code scheme holding every scope', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.securitySchemes.oauth2.flows.authorizationCode).toEqual({
      authorizationUrl: `${t.config.urls.web}/oauth/authorize`,
      tokenUrl: `${t.config.urls.base}/v1/oauth/token`,
      refreshUrl: `${t.config.urls.base}/v1/oauth/token`,
      scopes: Object.fromEntries(ALL_SCOPES.map((scope) => [scope, expect.any(String)])),
    });
  });

  it('names every operation `<resource>_<action>`, once, under a tag of the global list', () => {
    const ids = operationsOf(doc).map(({ operation }) => operation.operationId);
    expect(ids).toContain('orders_create');
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9]+(_[a-z0-9]+)+$/);
    const globalTags = doc.tags.map((tag: { name: string }) => tag.name);
    expect(globalTags).toEqual(Object.keys(API_TAGS));
    for (const { path, method, operation } of operationsOf(doc)) {
      expect(
        `${method} ${path}: ${operation.tags?.length && operation.tags.every((tag: string) => globalTags.includes(tag))}`,
      ).toBe(`${method} ${path}: true`);
    }
  });

  it('documents 400, 413 and 415 on every operation with a body, and 401, 429 and the rate-limit headers on every authenticated one', () => {
    for (const { path, method, operation } of operationsOf(doc)) {
      const where = `${method.toUpperCase()} ${path}`;
      if (['post', 'put', 'patch'].includes(method)) {
        // A payment callback reads what its gateway sends: no 415.
        const types = path.endsWith('/callback') ? ['400', '413'] : ['400', '413', '415'];
        expect(`${where} ${Object.keys(operation.responses).filter((s) => ['400', '413', '415'].includes(s))}`).toBe(
          `${where} ${types}`,
        );
        expect(JSON.stringify(operation.responses['400'].content['application/json'])).toContain(
          '"message":"Malformed JSON body."',
        );
      }
      const authenticated = operation.security?.some((requirement: object) => 'bearer' in requirement);
      if (!authenticated) continue;
      expect(operation.security).toEqual([{ bearer: [] }, { oauth2: operation['x-required-scopes'] ?? [] }]);
      expect(operation.responses['401'].headers['WWW-Authenticate'].required).toBe(true);
      expect(
        Object.values<any>(operation.responses['401'].content['application/json'].examples).map((e) => e.value.message),
      ).toEqual(['Token not provided', 'Unauthorized user.', 'Invalid token']);
      expect(operation.responses['429'].headers).toHaveProperty('Retry-After');
      for (const [status, response] of Object.entries<any>(operation.responses)) {
        if (['400', '401', '413', '415', '500', '503'].includes(status)) continue;
        expect(
          `${where} ${status} ${Object.keys(response.headers ?? {}).filter((h) => h.startsWith('RateLimit-'))}`,
        ).toBe(`${where} ${status} RateLimit-Limit,RateLimit-Remaining,RateLimit-Reset`);
      }
      if (operation.responses['403']) expect(operation.responses['403'].headers).toHaveProperty('WWW-Authenticate');
    }
    const replayed = doc.paths['/v1/orders'].post.responses['201'].headers['Idempotent-Replayed'];
    expect(replayed.schema).toEqual({ type: 'string', enum: ['true'] });
  });

  it('writes null the OpenAPI 3.1 way, every timestamp as date-time, and no defaults that generators turn into required fields', () => {
    const text = JSON.stringify(doc);
    expect(text).not.toContain('"nullable"');
    const schemas = doc.components.schemas;
    expect(schemas.OrderDto.properties.discount.oneOf).toEqual([
      { $ref: '#/components/schemas/OrderDiscountDto' },
      { type: 'null' },
    ]);
    expect(schemas.WebhookSummaryDto.properties.last_delivery_status.enum).toEqual(['success', 'failed', null]);
    for (const [name, schema] of Object.entries<any>(schemas)) {
      for (const [property, spec] of Object.entries<any>(schema.properties ?? {})) {
        if (/(_at|_date)$/.test(property))
          expect(`${name}.${property} ${JSON.stringify(spec).includes('"format":"date-time"')}`).toBe(
            `${name}.${property} true`,
          );
        expect(`${name}.${property} default ${spec.default}`).toBe(`${name}.${property} default undefined`);
      }
    }
  });

  it('gives examples that fit their own schemas, with the ids and messages the service really uses', () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: true });
    addFormats(ajv);
    for (const format of ['binary', 'int32', 'int64', 'float', 'double']) ajv.addFormat(format, true);
    ajv.addSchema({ ...doc, $id: 'doc.json' });
    const misfits: string[] = [];
    for (const [where, schema] of schemasOf(doc.components.schemas, '#/components/schemas')) {
      if (schema.example === undefined || where.split('/').length < 4) continue;
      const validate = ajv.compile({ $ref: `doc.json${where.replace(/^#/, '#')}` });
      if (!validate(schema.example))
        misfits.push(`${where}: ${JSON.stringify(schema.example)} ${ajv.errorsText(validate.errors)}`);
    }
    expect(misfits).toEqual([]);
    const text = JSON.stringify(doc);
    expect(text).not.toMatch(/"(prd|pln)_/);
    expect(doc.components.schemas.OrderProductDto.properties.pid.example).toMatch(/^prod_[0-9A-Za-z]{16}$/);
    expect(doc.components.schemas.OrderPlanDto.properties.plan_id.example).toMatch(/^plan_[0-9A-Za-z]{16}$/);
    expect(doc.components.schemas.ValidationErrorResponseDto.properties.errors.example).toEqual({
      'customer.email': ['customer.email must be a valid email address.'],
    });
  });

  it('passes redocly lint with no error', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'openapi-')), 'openapi.json');
    writeFileSync(file, JSON.stringify(doc));
    const root = join(__dirname, '..', '..', '..');
    const result = await promisify(execFile)(
      join(root, 'node_modules', '.bin', 'redocly'),
      ['lint', file, '--format=stylish'],
      { cwd: root },
    ).catch((error: { stdout?: string; stderr?: string }) => ({
      stdout: error.stdout ?? '',
      stderr: error.stderr ?? '',
      failed: true,
    }));
    expect(`${result.stdout}${result.stderr}`).not.toMatch(/\berror\b.*\n|Validation failed/);
    expect('failed' in result).toBe(false);
  });
});

/** The validator behind every e2e file (test/utils/contract.ts) does fail when it should. */
describe('the contract check of every e2e file', () => {
  let t: TestApp;
  let doc: any;
  let validator: ContractValidator;
  let order: Exchange;

  beforeAll(async () => {
    t = await createTestApp();
    doc = (await t.http.get('/docs-json').expect(200)).body;
    validator = new ContractValidator(doc, '');
    const seller = await createSeller(t);
    await t.http.get('/v1/orders').set(seller.auth).expect(200);
    order = t.contract.exchanges.find((exchange) => exchange.url === '/v1/orders')!;
  });
  afterAll(() => t.close());

  it('records what the app answered and accepts it when it fits', () => {
    expect(order).toMatchObject({ method: 'GET', status: 200 });
    expect(validator.check([order])).toEqual([]);
  });

  it('fails an undocumented status, a body off its schema, a missing required header and an unknown operation', () => {
    const failures = validator.check([
      { ...order, status: 418 },
      { ...order, body: JSON.stringify({ ...JSON.parse(order.body!), orders: [{ id: 'seven' }] }) },
      { ...order, headers: { 'content-type': 'application/json' } },
      { ...order, url: '/v1/nowhere', status: 200 },
      { ...order, method: 'PUT', status: 200 },
    ]);
    expect(failures).toEqual([
      expect.stringContaining('status 418 is not documented for GET /v1/orders'),
      expect.stringContaining('body does not match the schema: /orders/0'),
      expect.stringContaining('missing header RateLimit-Limit'),
      expect.stringContaining('no operation in the description has this path'),
      expect.stringContaining('no such method'),
    ]);
  });

  it('lets the 404 of an unknown route through, and anything outside {base_url}/v1', () => {
    const notFound = {
      method: 'GET',
      url: '/v1/nowhere',
      status: 404,
      headers: { 'content-type': 'application/json' },
      body: '{"status":"error","message":"Resource not found."}',
    };
    expect(validator.check([notFound, { ...order, url: '/web/login', status: 200 }])).toEqual([]);
  });
});
