import { randomBytes } from 'node:crypto';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { OrdersService } from '../../modules/billing/orders/orders.service';
import { ProductFilesService } from '../../modules/catalog/files/product-files.service';
import { PlansService } from '../../modules/catalog/plans/plans.service';
import { ProductsService } from '../../modules/catalog/products/products.service';
import { DiscountsService } from '../../modules/discounts/discounts.service';
import { ApiKeysService } from '../../modules/identity/api-keys/api-keys.service';
import { ALL_SCOPES } from '../../modules/identity/scopes';
import { SellersService } from '../../modules/identity/sellers/sellers.service';
import { WebhooksService } from '../../modules/webhooks/webhooks.service';
import type { CliCommand } from '../cli-command';
import { optional } from '../flags';

const CUSTOMER = { name: 'Ana Silva', email: 'ana@example.com', mobile_number: '+258841234567' };

/** What seed:demo made, as `--json` prints it. */
export interface DemoSeed {
  seller: { email: string; password: string };
  store_id: number;
  api_key: string;
  product_pid: string;
  recurring_product_pid: string;
  plan_id: string;
  discount_code: string;
  webhook: { id: number; url: string; secret: string } | null;
  checkout_url: string;
}

/** The order-creation command of the README quick start, filled in (the README shows it with placeholders). */
export function orderCommand(apiBase: string, apiKey: string, body: Record<string, unknown>): string {
  return `curl -s ${apiBase}/v1/orders -H "Authorization: Bearer ${apiKey}" -H 'Content-Type: application/json' -d '${JSON.stringify(body)}'`;
}

export function payCommand(payBase: string, payToken: string): string {
  return `curl -s -X POST ${payBase}/token/${payToken}/pay -H 'Accept: application/json' -d payment_method=mpesa -d payment_number=841234567`;
}

/**
 * `npm run seed:demo` (decisions §2.2): a demo seller with an MZN store, a complete one-time
 * product and a complete recurring one with a plan (each with a file), a coupon, an all-scope API
 * key, optionally a webhook (`--webhook-url`), and one pending order to pay in the browser, all
 * through the services the API uses. Prints a guide with ready-to-paste commands (or `--json`).
 * Each run creates a new seller, so it can be repeated.
 */
export const seedDemo: CliCommand = {
  name: 'seed:demo',
  usage: 'seed:demo [--webhook-url URL] [--json]',
  summary: 'Create a demo store (products, plan, coupon, all-scope key) and print ready-to-paste commands.',
  flags: {
    'webhook-url': 'also register a webhook for every order event at this URL',
    json: 'print what was created as JSON instead of the guide',
  },
  switches: ['json'],
  async run(app, flags) {
    const get = <T>(type: new (...args: never[]) => T): T => app.get(type, { strict: false });
    const config = app.get<AppConfig>(APP_CONFIG, { strict: false });
    const webhookUrl = optional(flags, 'webhook-url');
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
    const details = {
      sale_page_url: 'https://example.com/guide',
      image_url: 'https://example.com/guide.png',
      category: 'education',
      subcategory: 'marketing',
      contact_number: '+258841234567',
    };
    const products = get(ProductsService);
    const files = get(ProductFilesService);
    const oneTime = await products.create(store.id, {
      name: 'Digital Marketing Guide',
      type: 'one_time',
      price: 150,
      description: 'A guide to selling online.',
      ...details,
    });
    await files.add(store.id, oneTime.pid, { name: 'Guide (PDF)', link: 'https://example.com/guide.pdf' });
    const recurring = await products.create(store.id, {
      name: 'Marketing Club',
      type: 'recurring',
      price: 300,
      description: 'A new lesson every month.',
      ...details,
    });
    await files.add(store.id, recurring.pid, { name: 'Lesson 1 (PDF)', link: 'https://example.com/lesson-1.pdf' });
    const plan = await get(PlansService).create(store.id, {
      product_pid: recurring.pid,
      name: 'Monthly',
      price: 300,
      interval: 'month',
    });
    const discount = await get(DiscountsService).create(store.id, {
      code: `DEMO${suffix.toUpperCase()}`,
      type: 'percent',
      value: 10,
    });
    const { token } = await get(ApiKeysService).create({
      storeId: store.id,
      sellerId: seller.id,
      name: 'Demo key',
      scopes: ALL_SCOPES,
    });
    const webhook = webhookUrl
      ? (
          await get(WebhooksService).create(store.id, {
            url: webhookUrl,
            events: ['order_approved', 'order_cancelled', 'order_refund'],
            name: 'Demo webhook',
          })
        ).webhook
      : null;
    const order = { amount: 150, product_pid: oneTime.pid, customer: CUSTOMER };
    const session = await get(OrdersService).create(store.id, order as never);

    const seed: DemoSeed = {
      seller: { email, password },
      store_id: store.id,
      api_key: token,
      product_pid: oneTime.pid,
      recurring_product_pid: recurring.pid,
      plan_id: plan.plan.planId,
      discount_code: discount.code,
      webhook: webhook ? { id: webhook.id, url: webhook.url, secret: webhook.secret } : null,
      checkout_url: session.checkoutUrl,
    };
    if (optional(flags, 'json') !== undefined) return seed;
    const api = config.urls.base;
    return [
      `Demo store ready (${config.database.url ? 'DATABASE_URL' : `DATA_DIR ${config.dataDir}`}).`,
      '',
      `Dashboard   ${config.urls.web}/login   ${email} / ${password}`,
      `API key     ${token}   (every scope)`,
      `Products    ${oneTime.pid}   Digital Marketing Guide, 150.00 MZN, one-time`,
      `            ${recurring.pid}   Marketing Club, plan ${seed.plan_id}: 300.00 MZN a month`,
      `Coupon      ${discount.code}   10 % off`,
      ...(webhook ? [`Webhook     ${webhook.url}   signing secret ${webhook.secret}`] : []),
      '',
      'Pay a demo order in the browser (sandbox: any number pays, one ending in 0002 is declined):',
      `  ${session.checkoutUrl}`,
      '',
      'Create an order (the answer has its checkout_url and pay_token):',
      `  ${orderCommand(api, token, order)}`,
      'The same with the coupon:',
      `  ${orderCommand(api, token, { ...order, coupon_code: discount.code })}`,
      'The recurring product, on its plan:',
      `  ${orderCommand(api, token, { amount: 300, product_pid: recurring.pid, plan_id: seed.plan_id, customer: CUSTOMER })}`,
      'Pay an order without a browser (<pay_token> from the answer above):',
      `  ${payCommand(config.urls.pay, '<pay_token>')}`,
      '',
      `Swagger UI: ${api}/docs`,
    ].join('\n');
  },
};
