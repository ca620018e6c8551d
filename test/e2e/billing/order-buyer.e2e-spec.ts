import { createSeller, TestSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';
import { createOrder, insertProduct, orderBody, payJson, recordEvents } from './fixtures';

/** (billing README, `checkout/`) "An order keeps its buyer": a later order with the same email renames no earlier one. */
describe('an order keeps the buyer details given with it', () => {
  let t: TestApp;
  let seller: TestSeller;

  beforeAll(async () => {
    t = await createTestApp();
    seller = await createSeller(t);
  });
  afterAll(() => t.close());

  it('the first order keeps its name and numbers (GET, list, payload); the customer record shows the latest', async () => {
    const product = await insertProduct(t, seller.storeId, { name: 'Curso', price: '150.00' });
    const email = 'same.buyer@example.com';
    const first = await createOrder(
      t,
      seller,
      orderBody(product.pid, {
        customer: { name: 'Ana Silva', email, mobile_number: '+258841111111', payment_number: '841111111' },
      }),
    );
    const second = await createOrder(
      t,
      seller,
      orderBody(product.pid, { customer: { name: 'Ana Costa', email, mobile_number: '+258842222222' } }),
    );
    const get = async (ref: string) =>
      (await t.http.get(`/v1/orders/${ref}`).set(seller.auth).expect(200)).body.order.customer;
    expect(await get(first.order_number)).toMatchObject({
      name: 'Ana Silva',
      email,
      mobile_number: '+258841111111',
      payment_number: '841111111',
    });
    expect(await get(second.order_number)).toMatchObject({
      name: 'Ana Costa',
      mobile_number: '+258842222222',
      payment_number: null,
    });
    const customerId = (await get(first.order_number)).id;
    expect((await get(second.order_number)).id).toBe(customerId);
    const record = (await t.http.get(`/v1/customers/${customerId}`).set(seller.auth).expect(200)).body;
    expect(JSON.stringify(record)).toContain('Ana Costa');
    expect(JSON.stringify(record)).not.toContain('Ana Silva');

    const list = (await t.http.get('/v1/orders').query({ email }).set(seller.auth).expect(200)).body;
    const names = Object.fromEntries((list.data ?? list.orders).map((o: any) => [o.order_number, o.customer.name]));
    expect(names).toEqual({ [first.order_number]: 'Ana Silva', [second.order_number]: 'Ana Costa' });

    const events = recordEvents(t);
    await payJson(t, first.pay_token, { payment_method: 'mpesa', payment_number: '841111111' }).expect(200);
    expect(events[0].payload.customer).toMatchObject({ name: 'Ana Silva', mobile_number: '+258841111111', email });
  });
});
