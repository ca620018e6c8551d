import { createSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';

describe('Catalog in OpenAPI and on the surfaces', () => {
  let t: TestApp;
  let doc: any;

  beforeAll(async () => {
    t = await createTestApp();
    doc = (await t.http.get('/docs-json').expect(200)).body;
  });
  afterAll(() => t.close());

  const operations: [string, string, string][] = [
    ['post', '/v1/products', 'products.write'],
    ['get', '/v1/products', 'products.read'],
    ['get', '/v1/products/{id}', 'products.read'],
    ['patch', '/v1/products/{id}', 'products.write'],
    ['delete', '/v1/products/{id}', 'products.write'],
    ['post', '/v1/products/{id}/publish', 'products.write'],
    ['post', '/v1/products/{id}/files', 'files.write'],
    ['get', '/v1/products/{id}/files', 'files.read'],
    ['delete', '/v1/products/{id}/files/{file_id}', 'files.write'],
    ['post', '/v1/plans', 'plans.write'],
    ['post', '/v1/plan', 'plans.write'],
    ['get', '/v1/plans', 'plans.read'],
    ['get', '/v1/plans/{id}', 'plans.read'],
    ['patch', '/v1/plans/{id}', 'plans.write'],
    ['delete', '/v1/plans/{id}', 'plans.write'],
    ['get', '/v1/plans/{id}/subscribers', 'plans.read'],
  ];

  it.each(operations)('documents %s %s with its scope, examples and error responses', (method, path, scope) => {
    const operation = doc.paths[path]?.[method];
    expect(operation).toBeDefined();
    expect(operation['x-required-scopes']).toEqual([scope]);
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['401', '403']));
    const success = operation.responses['200'] ?? operation.responses['201'];
    expect(success.content['application/json'].schema.$ref).toMatch(/ResponseDto$/);
    if (path.includes('{id}')) expect(operation.responses['404']).toBeDefined();
  });

  it('gives every catalog schema property an example', () => {
    const catalogSchemas = Object.entries(
      doc.components.schemas as Record<
        string,
        { properties?: Record<string, { example?: unknown; $ref?: string; items?: unknown; format?: string }> }
      >,
    ).filter(([name]) => /Product|Plan|Subscriber|Publish/.test(name));
    expect(catalogSchemas.length).toBeGreaterThan(10);
    for (const [name, schema] of catalogSchemas) {
      for (const [property, spec] of Object.entries(schema.properties ?? {})) {
        const documented =
          spec.example !== undefined || spec.$ref !== undefined || spec.items !== undefined || spec.format === 'binary';
        expect(`${name}.${property}: ${documented}`).toBe(`${name}.${property}: true`);
      }
    }
  });

  it('documents the publish 422 body: missing_fields maps a field name to a message string', () => {
    // With the Idempotency-Key's own 422 beside it (anyOf).
    const declared = doc.paths['/v1/products/{id}/publish'].post.responses['422'].content['application/json'].schema;
    const ref = declared.$ref ?? declared.anyOf[0].$ref;
    const schema = doc.components.schemas[ref.split('/').pop()];
    expect(schema.required).toContain('missing_fields');
    expect(schema.properties.missing_fields).toMatchObject({
      type: 'object',
      additionalProperties: { type: 'string' },
    });
  });

  it('keeps the API off the CDN surface and the CDN out of the API description', async () => {
    const seller = await createSeller(t);
    await t.http.get('/cdn/v1/products').set(seller.auth).expect(404);
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/cdn'))).toEqual([]);
  });
});
