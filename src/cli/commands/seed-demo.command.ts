import { randomBytes } from 'node:crypto';
import { ProductFilesService } from '../../modules/catalog/files/product-files.service';
import { PlansService } from '../../modules/catalog/plans/plans.service';
import { ProductsService } from '../../modules/catalog/products/products.service';
import { DiscountsService } from '../../modules/discounts/discounts.service';
import { ApiKeysService } from '../../modules/identity/api-keys/api-keys.service';
import { ALL_SCOPES } from '../../modules/identity/scopes';
import { SellersService } from '../../modules/identity/sellers/sellers.service';
import type { CliCommand } from '../cli-command';

/**
 * `npm run seed:demo` (decisions §2.2): a demo seller with an MZN store, a complete recurring
 * product with a file and a plan, a discount and an all-scope API key, all through the services
 * the API uses. Each run creates a new seller, so it can be repeated.
 */
export const seedDemo: CliCommand = {
  name: 'seed:demo',
  usage: 'seed:demo',
  async run(app) {
    const get = <T>(type: new (...args: never[]) => T): T => app.get(type, { strict: false });
    const suffix = randomBytes(3).toString('hex');
    const email = `demo-${suffix}@example.com`;
    const password = randomBytes(12).toString('base64url');
    const { seller, store } = await get(SellersService).register({
      name: 'Demo Seller',
      email,
      password,
      storeName: 'Demo Store',
      brand: 'Demo Books',
      currency: 'MZN',
    });
    const product = await get(ProductsService).create(store.id, {
      name: 'Digital Marketing Guide',
      type: 'recurring',
      price: 150,
      description: 'A monthly guide to selling online.',
      sale_page_url: 'https://example.com/guide',
      image_url: 'https://example.com/guide.png',
      category: 'education',
      subcategory: 'marketing',
      contact_number: '+258841234567',
    });
    await get(ProductFilesService).add(store.id, product.pid, { name: 'Guide (PDF)', link: 'https://example.com/guide.pdf' });
    const plan = await get(PlansService).create(store.id, {
      product_pid: product.pid,
      name: 'Monthly',
      price: 150,
      interval: 'month',
    });
    const discount = await get(DiscountsService).create(store.id, { code: `DEMO${suffix.toUpperCase()}`, type: 'percent', value: 10 });
    const { token } = await get(ApiKeysService).create({ storeId: store.id, sellerId: seller.id, name: 'Demo key', scopes: ALL_SCOPES });
    return {
      seller: { email, password },
      store_id: store.id,
      api_key: token,
      product_pid: product.pid,
      plan_id: plan.plan.planId,
      discount_code: discount.code,
    };
  },
};
