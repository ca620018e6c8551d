import { createTestApp, TestApp } from '../../utils/test-app';

describe('billing in the OpenAPI description', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('documents every billing route with its scope, schemas and error responses, and no customer page', async () => {
    const doc = (await t.http.get('/docs-json').expect(200)).body;
    const create = doc.paths['/v1/orders'].post;
    expect(create['x-required-scopes']).toEqual(['orders.write']);
    expect(Object.keys(create.responses).sort()).toEqual([
      '201',
      '400',
      '401',
      '403',
      '404',
      '409',
      '413',
      '415',
      '422',
      '429',
      '500',
      '503',
    ]);
    expect(create.requestBody.content['application/json'].schema.$ref).toContain('CreateOrderDto');
    expect(doc.components.schemas.CreateOrderDto.properties.amount.example).toBe(1500);
    expect(doc.paths['/v1/orders'].get['x-required-scopes']).toEqual(['orders.read']);
    expect(doc.paths['/v1/orders/{id}'].get['x-required-scopes']).toEqual(['orders.read']);
    expect(doc.paths['/v1/orders/{id}/refund'].post.responses).toHaveProperty('409');
    expect(doc.paths['/v1/customers'].get['x-required-scopes']).toEqual(['customers.read']);
    expect(doc.paths['/v1/customers/{id}'].get.responses).toHaveProperty('404');
    expect(doc.paths['/v1/customers/{id}/orders'].get.responses).toHaveProperty('422');
    expect(doc.paths['/v1/payments/{provider}/callback'].post.responses).toHaveProperty('401');
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/pay'))).toEqual([]);
  });
});
