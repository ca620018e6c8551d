import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { createSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';

describe('HTTP layer', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('serves GET /v1/health without a token', async () => {
    const res = await t.http.get('/v1/health').expect(200);
    expect(res.body).toEqual({ status: 'ok', database: 'up' });
    expect(res.headers['x-request-id']).toMatch(/.+/);
  });

  it('echoes a caller-supplied request id', async () => {
    const res = await t.http.get('/v1/health').set('X-Request-Id', 'abc-123').expect(200);
    expect(res.headers['x-request-id']).toBe('abc-123');
  });

  it('answers an unknown route with 404 Resource not found.', async () => {
    const res = await t.http.get('/v1/no-such-thing').expect(404);
    expect(res.body).toEqual({ status: 'error', message: 'Resource not found.' });
  });

  it('answers what Node cannot parse in the contract’s error shape: a URL over 16 KiB is 431, a broken request line 400', async () => {
    const long = await t.http.get(`/v1/health?x=${'u'.repeat(20_000)}`).expect(431);
    expect(long.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(long.text)).toEqual({
      status: 'error',
      message: 'Request headers are too large (at most 16 KiB with the URL).',
    });
    // A request line no HTTP parser takes, on a socket of its own.
    const server = t.app.getHttpServer();
    if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const raw = await new Promise<string>((resolve, reject) => {
      let answer = '';
      const socket = connect(port, '127.0.0.1', () =>
        socket.write('GET /v1/health HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n'),
      );
      socket.on('data', (chunk) => (answer += chunk.toString()));
      socket.on('close', () => resolve(answer));
      socket.on('error', reject);
    });
    expect(raw.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
    expect(JSON.parse(raw.split('\r\n\r\n')[1])).toEqual({ status: 'error', message: 'Malformed HTTP request.' });
  });

  it('answers malformed JSON with 400 before authentication', async () => {
    const res = await t.http.post('/v1/user').set('Content-Type', 'application/json').send('{"name": ').expect(400);
    expect(res.body).toEqual({ status: 'error', message: 'Malformed JSON body.' });
  });

  it.each(['null', '1', '"text"'])('answers a bare JSON value (%s) as a body with 400', async (body) => {
    const res = await t.http.post('/v1/discounts').set('Content-Type', 'application/json').send(body).expect(400);
    expect(res.body).toEqual({ status: 'error', message: 'Malformed JSON body.' });
    // The token endpoint says the same as an OAuth error (RFC 6749 §5.2).
    const token = await t.http.post('/v1/oauth/token').set('Content-Type', 'application/json').send(body).expect(400);
    expect(token.body).toEqual({
      status: 'error',
      message: 'Malformed JSON body.',
      error: 'invalid_request',
      error_description: 'Malformed JSON body.',
    });
  });

  it('answers a body over 1 MiB with 413', async () => {
    const big = JSON.stringify({ data: 'x'.repeat(1024 * 1024 + 10) });
    const res = await t.http.post('/v1/user').set('Content-Type', 'application/json').send(big).expect(413);
    expect(res.body).toEqual({ status: 'error', message: 'Payload too large.' });
  });

  it('reads a DELETE body too: malformed is 400, over 1 MiB 413, both in its documented answers', async () => {
    const seller = await createSeller(t, { scopes: ['discounts.write'] });
    const malformed = await t.http
      .delete('/v1/discounts/NOPE')
      .set(seller.auth)
      .set('Content-Type', 'application/json')
      .send('garbage')
      .expect(400);
    expect(malformed.body).toEqual({ status: 'error', message: 'Malformed JSON body.' });
    const big = JSON.stringify({ data: 'x'.repeat(1024 * 1024 + 10) });
    await t.http
      .delete('/v1/discounts/NOPE')
      .set(seller.auth)
      .set('Content-Type', 'application/json')
      .send(big)
      .expect(413);
    const doc = (await t.http.get('/docs-json').expect(200)).body;
    expect(Object.keys(doc.paths['/v1/discounts/{id}'].delete.responses)).toEqual(
      expect.arrayContaining(['400', '413']),
    );
  });

  it('refuses a body of a type the route does not read with 415, before anything changes; no body passes with any type', async () => {
    const seller = await createSeller(t, { scopes: ['discounts.read', 'discounts.write', 'products.write'] });
    await t.http
      .post('/v1/discounts')
      .set(seller.auth)
      .send({ code: 'CTYPE', type: 'fixed', value: 1, uses_limit: 5 })
      .expect(201);
    const patch = () => t.http.patch('/v1/discounts/CTYPE').set(seller.auth);
    for (const [type, body] of [
      ['text/plain', '{"uses_limit":777}'],
      ['application/x-www-form-urlencoded', 'uses_limit=777'],
      ['application/xml', '<uses_limit>777</uses_limit>'],
    ]) {
      const res = await patch().set('Content-Type', type).send(body);
      expect({ type, status: res.status, body: res.body }).toEqual({
        type,
        status: 415,
        body: { status: 'error', message: 'Content-Type must be application/json.' },
      });
    }
    const unchanged = await t.http.get('/v1/discounts/CTYPE').set(seller.auth).expect(200);
    expect(unchanged.body.discount.uses_limit).toBe(5);

    await patch().set('Content-Type', 'application/json; charset=utf-8').send('{"uses_limit":6}').expect(200);
    await patch().set('Content-Type', 'application/merge-patch+json').send('{"uses_limit":7}').expect(200);
    // No body: the type does not matter (a product that cannot be published yet is 422, not 415).
    const product = await t.http.post('/v1/products').set(seller.auth).send({ name: 'Draft' });
    const publish = await t.http
      .post(`/v1/products/${product.body.product.pid}/publish`)
      .set(seller.auth)
      .set('Content-Type', 'text/plain');
    expect(publish.status).not.toBe(415);

    // The OAuth endpoints read forms too, and say so.
    const form = await t.http.post('/v1/oauth/token').type('form').send({ grant_type: 'authorization_code' });
    expect(form.status).toBe(401);
    const text = await t.http.post('/v1/oauth/token').set('Content-Type', 'text/plain').send('grant_type=x');
    const unsupported = 'Content-Type must be application/json or application/x-www-form-urlencoded.';
    expect({ status: text.status, body: text.body }).toEqual({
      status: 415,
      body: { status: 'error', message: unsupported, error: 'invalid_request', error_description: unsupported },
    });

    const doc = (await t.http.get('/docs-json').expect(200)).body;
    expect(doc.paths['/v1/discounts/{id}'].patch.responses['415'].description).toContain(
      'Content-Type must be application/json.',
    );
    expect(doc.paths['/v1/oauth/token'].post.responses['415'].description).toContain(
      'application/json or application/x-www-form-urlencoded',
    );
    expect(doc.paths['/v1/payments/{provider}/callback'].post.responses['415']).toBeUndefined();
  });

  it('answers an unexpected failure with 500 and no stack or SQL', async () => {
    const seller = await createSeller(t, { scopes: ['user.read'] });
    await t.dataSource.query('ALTER TABLE sellers RENAME TO sellers_moved');
    try {
      const res = await t.http.get('/v1/user').set(seller.auth).expect(500);
      expect(res.body).toEqual({ status: 'error', message: 'Internal server error.' });
      expect(JSON.stringify(res.body)).not.toMatch(/sellers|SELECT|at /);
    } finally {
      await t.dataSource.query('ALTER TABLE sellers_moved RENAME TO sellers');
    }
  });

  describe('authentication', () => {
    it('401 Token not provided without an Authorization header', async () => {
      const res = await t.http.get('/v1/user').expect(401);
      expect(res.body).toEqual({ status: 'error', message: 'Token not provided' });
    });

    it('401 Unauthorized user. for a header that is not Bearer', async () => {
      const res = await t.http.get('/v1/user').set('Authorization', 'Basic abc').expect(401);
      expect(res.body).toEqual({ status: 'error', message: 'Unauthorized user.' });
    });

    it('401 Invalid token for an unknown token', async () => {
      const res = await t.http.get('/v1/user').set('Authorization', 'Bearer sk_doesnotexist').expect(401);
      expect(res.body).toEqual({ status: 'error', message: 'Invalid token' });
    });

    it('403 with the scope details for a token without the scope', async () => {
      const seller = await createSeller(t, { scopes: ['orders.read'] });
      const res = await t.http.get('/v1/user').set(seller.auth).expect(403);
      expect(res.body).toEqual({
        status: 'error',
        message: 'Permission denied for this endpoint.',
        error_code: 'insufficient_scope',
        required_scopes: ['user.read'],
        missing_scopes: ['user.read'],
        granted_scopes: ['orders.read'],
      });
    });

    it('GET /v1/user answers for the token store', async () => {
      const seller = await createSeller(t, { scopes: ['user.read'], brand: 'Ana Books' });
      const res = await t.http.get('/v1/user').set(seller.auth).expect(200);
      expect(res.body).toEqual({
        status: 'success',
        user: {
          id: seller.sellerId,
          name: expect.any(String),
          email: seller.email,
          store: { id: seller.storeId, name: expect.any(String), brand: 'Ana Books', currency: 'MZN' },
        },
      });
    });
  });

  it('publishes the OpenAPI description at /docs-json, version 1.0.0', async () => {
    const res = await t.http.get('/docs-json').expect(200);
    expect(res.body.openapi).toMatch(/^3\./);
    expect(res.body.info.version).toBe('1.0.0');
    expect(res.body.paths['/v1/health']).toBeDefined();
    await t.http.get('/docs').expect(200);
  });

  it('types every scalar property of the OpenAPI schemas (a nullable string is a string, not an object)', async () => {
    const doc = (await t.http.get('/docs-json').expect(200)).body;
    const untyped: string[] = [];
    for (const [schema, body] of Object.entries<any>(doc.components.schemas)) {
      for (const [name, prop] of Object.entries<any>(body.properties ?? {})) {
        const structured = prop.$ref || prop.allOf || prop.properties || prop.additionalProperties;
        if (prop.type === 'object' && !structured && (prop.example === null || typeof prop.example !== 'object'))
          untyped.push(`${schema}.${name}`);
      }
    }
    expect(untyped).toEqual([]);
    // OpenAPI 3.1: a nullable scalar is its type or null.
    expect(doc.components.schemas.OrderDto.properties.transaction_id).toMatchObject({
      oneOf: [{ type: 'string' }, { type: 'null' }],
    });
    expect(doc.components.schemas.CreateProductDto.properties.price).toMatchObject({
      oneOf: [{ type: 'number' }, { type: 'null' }],
    });
  });

  it("types the spec's integer fields as integer in the OpenAPI schemas and parameters", async () => {
    const doc = (await t.http.get('/docs-json').expect(200)).body;
    const INTEGER = [
      'id',
      'file_id',
      'product_id',
      'affiliate_id',
      'page',
      'per_page',
      'last_page',
      'total',
      'uses_limit',
      'used_count',
      'available_uses',
      'expires_in',
    ];
    const wrong: string[] = [];
    for (const [schema, body] of Object.entries<any>(doc.components.schemas)) {
      for (const [name, property] of Object.entries<any>(body.properties ?? {})) {
        // A nullable field (OpenAPI 3.1): its type is that of the branch that is not null.
        const prop = property.oneOf?.find((branch: any) => branch.type !== 'null') ?? property;
        if (INTEGER.includes(name) && prop.type !== 'integer') wrong.push(`${schema}.${name}: ${prop.type}`);
        if (name === 'product_ids' && prop.items?.type !== 'integer')
          wrong.push(`${schema}.${name}[]: ${prop.items?.type}`);
      }
    }
    for (const [path, operations] of Object.entries<any>(doc.paths)) {
      for (const [method, operation] of Object.entries<any>(operations)) {
        for (const param of operation.parameters ?? []) {
          if (['page', 'per_page', 'file_id'].includes(param.name) && param.schema?.type !== 'integer') {
            wrong.push(`${method.toUpperCase()} ${path} ${param.name}: ${param.schema?.type}`);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});
