import { randomBase62 } from '../../common/crypto';
import { ProductFilesService } from '../../modules/catalog/files/product-files.service';
import { PlansService } from '../../modules/catalog/plans/plans.service';
import { ProductsService } from '../../modules/catalog/products/products.service';
import { DiscountsService } from '../../modules/discounts/discounts.service';
import { ApiKeysService } from '../../modules/identity/api-keys/api-keys.service';
import { ALL_SCOPES } from '../../modules/identity/scopes';
import { SellersService } from '../../modules/identity/sellers/sellers.service';
import { CliCommand } from '../cli-command';
import { optional } from '../flags';

/**
 * decisions §2.2 `npm run seed:demo`: a demo seller with an MZN store, a product complete enough to
 * publish (with a file and a plan), a discount and an all-scope API key. The password is random and
 * printed once, with the rest of the credentials.
 */
export const seedDemo: CliCommand = {
  name: 'seed:demo',
  usage: 'seed:demo [--email demo@example.com]',
  async run(app, flags) {
    const email = optional(flags, 'email') ?? 'demo@example.com';
    const password = `demo-${randomBase62(16)}`;
    const { seller, store } = await app.get(SellersService).register({
      email,
      password,
      name: 'Demo Seller',
      storeName: 'Demo Store',
      currency: 'MZN',
    });
    const storeId = store.id;
    const product = await app.get(ProductsService, { strict: false }).create(storeId, {
      name: 'Demo course',
      type: 'recurring',
      price: 500,
      description: 'A demo product with everything a review asks for.',
      sale_page_url: 'https://example.com/demo-course',
      image_url: 'https://example.com/demo-course.png',
      category: 'Education',
      subcategory: 'Online courses',
      contact_number: '+258841234567',
    });
    const file = await app
      .get(ProductFilesService, { strict: false })
      .add(storeId, product.pid, { name: 'Lesson 1', link: 'https://example.com/demo-course/lesson-1' });
    const plan = await app
      .get(PlansService, { strict: false })
      .create(storeId, { product_pid: product.pid, name: 'Monthly', price: 500, interval: 'month', interval_count: 1 });
    const discount = await app
      .get(DiscountsService, { strict: false })
      .create(storeId, { code: 'DEMO10', type: 'percent', value: 10, never_expires: true });
    const { apiKey, token } = await app
      .get(ApiKeysService)
      .create({ storeId, sellerId: seller.id, name: 'Demo key (all scopes)', scopes: ALL_SCOPES });
    return {
      seller_id: seller.id,
      store_id: storeId,
      email,
      password,
      api_key: token,
      scopes: apiKey.scopes,
      product_id: product.id,
      product_pid: product.pid,
      file_id: file.id,
      plan_id: plan.plan.planId,
      discount_code: discount.code,
    };
  },
};
