import { Scope } from '../../../src/modules/identity/scopes';
import { createSeller, TestSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';

/*
 * The contract's full 403 body. The module suites already check it whole for products, files, plans,
 * webhooks, discounts, affiliates and user; orders and customers only matched parts of it.
 */
describe('403 with the full scope body on the orders and customers routes', () => {
  let t: TestApp;
  let seller: TestSeller;

  beforeAll(async () => {
    t = await createTestApp();
    seller = await createSeller(t);
  });
  afterAll(() => t.close());

  it.each<[string, string, Scope, Scope[]]>([
    ['post', '/v1/orders', 'orders.write', ['orders.read', 'customers.read']],
    ['get', '/v1/orders', 'orders.read', ['orders.write']],
    ['get', '/v1/orders/1', 'orders.read', ['orders.write']],
    ['post', '/v1/orders/1/refund', 'orders.write', ['orders.read']],
    ['get', '/v1/customers', 'customers.read', ['orders.read', 'orders.write']],
    ['get', '/v1/customers/1', 'customers.read', ['orders.read']],
    ['get', '/v1/customers/1/orders', 'customers.read', ['orders.read']],
  ])('%s %s without %s', async (method, path, required, granted) => {
    const token = await seller.tokenWith(granted);
    const req = method === 'post' ? t.http.post(path).send({}) : t.http.get(path);
    const res = await req.set('Authorization', `Bearer ${token}`).expect(403);
    expect(res.body).toEqual({
      status: 'error',
      message: 'Permission denied for this endpoint.',
      error_code: 'insufficient_scope',
      required_scopes: [required],
      missing_scopes: [required],
      granted_scopes: granted,
    });
  });
});
