import { createSeller, TestSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';
import { createPlan, createProduct, NOT_FOUND } from '../catalog/catalog-fixtures';
import { subscribe } from '../subscriptions/helpers';

/**
 * The order of checks (README, *Documenting an endpoint*): a resource the caller's store does not
 * have is 404 before the body sent with it is judged, on every route that takes a path id and a
 * body; the store's own resource with the same body is the 422.
 */
describe("404 for another store's resource comes before 422 for the body", () => {
  let t: TestApp;
  let seller: TestSeller;
  let other: TestSeller;
  const routes: Array<{ name: string; method: 'patch' | 'post'; own: string; foreign: string; body: object }> = [];

  beforeAll(async () => {
    t = await createTestApp();
    seller = await createSeller(t);
    other = await createSeller(t);
    const resources = async (owner: TestSeller) => {
      const product = await createProduct(t, owner, { name: 'Clube', type: 'recurring' });
      const plan = await createPlan(t, owner, product.pid);
      const discount = (
        await t.http
          .post('/v1/discounts')
          .set(owner.auth)
          .send({ code: `C${product.id}`, type: 'percentage', value: 10 })
          .expect(201)
      ).body.discount;
      const webhook = (
        await t.http
          .post('/v1/webhooks')
          .set(owner.auth)
          .send({ url: 'https://hooks.example.com/a', events: ['order_approved'] })
          .expect(201)
      ).body.webhook;
      const { subscriptionId } = await subscribe(t, owner, { at: new Date() });
      return { product, plan, discount, webhook, subscriptionId };
    };
    const mine = await resources(seller);
    const theirs = await resources(other);
    routes.push(
      {
        name: 'PATCH a product',
        method: 'patch',
        own: `/v1/products/${mine.product.pid}`,
        foreign: `/v1/products/${theirs.product.pid}`,
        body: { price: 'x' },
      },
      {
        name: 'PATCH a plan',
        method: 'patch',
        own: `/v1/plans/${mine.plan.plan_id}`,
        foreign: `/v1/plans/${theirs.plan.plan_id}`,
        body: { price: -1 },
      },
      {
        name: 'POST an order bump',
        method: 'post',
        own: `/v1/products/${mine.product.pid}/order-bumps`,
        foreign: `/v1/products/${theirs.product.pid}/order-bumps`,
        body: { price: 'x' },
      },
      {
        name: 'POST a file',
        method: 'post',
        own: `/v1/products/${mine.product.pid}/files`,
        foreign: `/v1/products/${theirs.product.pid}/files`,
        body: { link: 5 },
      },
      {
        name: 'PATCH a discount',
        method: 'patch',
        own: `/v1/discounts/${mine.discount.id}`,
        foreign: `/v1/discounts/${theirs.discount.id}`,
        body: { value: 'x' },
      },
      {
        name: 'PATCH a webhook',
        method: 'patch',
        own: `/v1/webhooks/${mine.webhook.id}`,
        foreign: `/v1/webhooks/${theirs.webhook.id}`,
        body: { url: 5 },
      },
      {
        name: 'POST a subscription cancel',
        method: 'post',
        own: `/v1/subscriptions/${mine.subscriptionId}/cancel`,
        foreign: `/v1/subscriptions/${theirs.subscriptionId}/cancel`,
        body: { at_period_end: 'x' },
      },
    );
  });
  afterAll(() => t.close());

  it('on every route with a path id and a body', async () => {
    expect(routes).toHaveLength(7);
    for (const route of routes) {
      const foreign = await t.http[route.method](route.foreign).set(seller.auth).send(route.body);
      expect({ route: route.name, status: foreign.status, body: foreign.body }).toEqual({
        route: route.name,
        status: 404,
        body: NOT_FOUND,
      });
      const own = await t.http[route.method](route.own).set(seller.auth).send(route.body);
      expect({ route: route.name, status: own.status }).toEqual({ route: route.name, status: 422 });
      // An id that names nothing at all is the same 404.
      const unknown = route.foreign.replace(/\/v1\/(\w+(?:-\w+)?)\/[^/]+/, '/v1/$1/999999');
      expect((await t.http[route.method](unknown).set(seller.auth).send(route.body)).status).toBe(404);
    }
  });
});
