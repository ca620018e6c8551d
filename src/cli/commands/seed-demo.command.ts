import type { INestApplicationContext } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { buyLinkUrl, CheckoutPaymentsService, LicensesService, OrdersService } from '../../modules/billing';
import { AffiliatesService } from '../../modules/affiliates';
import {
  FILE_STORAGE,
  FileStorage,
  newStorageKey,
  OrderBumpsService,
  PlansService,
  ProductFilesService,
  ProductsService,
} from '../../modules/catalog';
import { DEMO, DemoRepository } from '../../modules/demo';
import { DiscountsService } from '../../modules/discounts';
import { ALL_SCOPES, ApiKeysService, SellersService } from '../../modules/identity';
import { WebhooksService } from '../../modules/webhooks';
import type { CliCommand } from '../cli-command';
import { optional } from '../flags';
import { DEMO_CHECKLIST_TEXT, DEMO_GUIDE_TEXT, DEMO_TOOLKIT_TEXT } from './demo-guide';

const CUSTOMER = DEMO.customer;

/** What seed:demo made, as `--json` prints it. */
export interface DemoSeed {
  seller: { email: string; password: string | null };
  store_id: number;
  api_key: string;
  product_pid: string;
  recurring_product_pid: string;
  plan_id: string;
  discount_code: string;
  /** The key of the demo's paid order of the licensed product (null without the sandbox). */
  license: { product_pid: string; id: number; key: string } | null;
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

/** Where a demo product's image is served by the service itself (the checkout's own assets). */
export function demoCoverUrl(config: AppConfig, product: 'guide' | 'club' | 'checklist' | 'toolkit' = 'guide'): string {
  return `${config.urls.pay}/assets/demo-cover${product === 'guide' ? '' : `-${product}`}.svg`;
}

type Get = <T>(type: (new (...args: never[]) => T) | symbol) => T;

/**
 * `npm run seed:demo` (README, Quick start): the demo store with fixed identifiers
 * (`prod_demo_guide`, `prod_demo_club` on plan `plan_demo_monthly`, coupon `WELCOME10`, and what
 * the examples of the OpenAPI description change or delete), all through the services the API
 * uses. Idempotent: run again, it reuses the store, puts back what the examples deleted, removes
 * what they created, and prints a fresh all-scope key. `--webhook-url` registers a webhook.
 */
export const seedDemo: CliCommand = {
  name: 'seed:demo',
  usage: 'seed:demo [--webhook-url URL] [--json]',
  summary:
    'Create (or refresh) the demo store: products, plan, coupon, a fresh all-scope key, ready-to-paste commands.',
  flags: {
    'webhook-url': 'also register a webhook for every order event at this URL',
    json: 'print what was created as JSON instead of the guide',
  },
  switches: ['json'],
  async run(app, flags) {
    const config = app.get<AppConfig>(APP_CONFIG, { strict: false });
    const seed = await seedDemoStore(app, optional(flags, 'webhook-url') ?? null);
    if (optional(flags, 'json') !== undefined) return seed;
    const api = config.urls.base;
    const token = seed.api_key;
    const order = { amount: 150, product_pid: DEMO.guidePid, customer: CUSTOMER };
    return [
      `Demo store ready (${config.database.url ? 'DATABASE_URL' : `DATA_DIR ${config.dataDir}`}).`,
      '',
      `Dashboard   ${config.urls.web}/login   ${seed.seller.email} / ${seed.seller.password ?? '(the password printed the first time)'}`,
      `API key     ${token}   (every scope; a new one each run)`,
      `Products    ${DEMO.guidePid}   Digital Marketing Guide, 150.00 MZN, one-time`,
      `            ${DEMO.clubPid}   Marketing Club, plan ${DEMO.planId}: 300.00 MZN a month`,
      `            ${DEMO.licensedPid}   Invoice Toolkit, 90.00 MZN, one-time, a license key with each order`,
      `Coupon      ${DEMO.coupon}   10 % off`,
      `Buy link    ${buyLinkUrl(config.urls.pay, DEMO.guidePid)}   (share it: anyone can buy there)`,
      ...(seed.license
        ? [`License key ${seed.license.key}   (id ${seed.license.id}) of a paid order of ${DEMO.licensedPid}`]
        : []),
      ...(seed.webhook ? [`Webhook     ${seed.webhook.url}   signing secret ${seed.webhook.secret}`] : []),
      '',
      'Pay a demo order in the browser (sandbox: any number pays, one ending in 0002 is declined):',
      `  ${seed.checkout_url}`,
      '',
      'Create an order (the answer has its checkout_url and pay_token):',
      `  ${orderCommand(api, token, order)}`,
      'The same with the coupon:',
      `  ${orderCommand(api, token, { ...order, coupon_code: DEMO.coupon })}`,
      'The recurring product, on its plan:',
      `  ${orderCommand(api, token, { amount: 300, product_pid: DEMO.clubPid, plan_id: DEMO.planId, customer: CUSTOMER })}`,
      'Pay an order without a browser (<pay_token> from the answer above):',
      `  ${payCommand(config.urls.pay, '<pay_token>')}`,
      '',
      `Swagger UI: ${api}/docs   (Authorize with the API key: every example runs against this store)`,
    ].join('\n');
  },
};

/** The demo store, made or refreshed (see {@link seedDemo}). */
export async function seedDemoStore(app: INestApplicationContext, webhookUrl: string | null): Promise<DemoSeed> {
  const get: Get = (type) => app.get(type as never, { strict: false });
  const config = get<AppConfig>(APP_CONFIG);
  const licenses = get(LicensesService);
  const repo = DemoRepository.of(app);
  const sellers = get(SellersService);
  let password: string | null = null;
  let seller = await sellers.findByEmail(DEMO.sellerEmail);
  if (!seller) {
    password = randomBytes(12).toString('base64url');
    seller = (
      await sellers.register({
        name: 'Demo Seller',
        email: DEMO.sellerEmail,
        password,
        storeName: 'Demo Store',
        brand: 'Demo Books',
        currency: 'MZN',
      })
    ).seller;
  }
  const storeId = (await repo.storeId())!;
  const products = get(ProductsService);
  const plans = get(PlansService);
  const files = get(ProductFilesService);
  const details = {
    sale_page_url: 'https://example.com/guide',
    image_url: demoCoverUrl(config),
    category: 'education',
    subcategory: 'marketing',
    contact_number: CUSTOMER.mobile_number,
  };
  const ensureProduct = async (pid: string, input: Parameters<ProductsService['create']>[1]) => {
    const found = await products.findForStore(storeId, pid);
    if (found) return found;
    return products.create(storeId, input, pid);
  };
  const guide = await ensureProduct(DEMO.guidePid, {
    name: 'Digital Marketing Guide',
    type: 'one_time',
    price: 150,
    description: 'A guide to selling online.',
    ...details,
  });
  const club = await ensureProduct(DEMO.clubPid, {
    name: 'Marketing Club',
    type: 'recurring',
    price: 300,
    description: 'A new lesson every month.',
    ...details,
    image_url: demoCoverUrl(config, 'club'),
  });
  await ensureProduct(DEMO.checklistPid, {
    name: 'Launch Checklist',
    type: 'one_time',
    price: 59,
    description: 'One page to check before each launch.',
    ...details,
    image_url: demoCoverUrl(config, 'checklist'),
  });
  await ensureProduct(DEMO.draftPid, { name: 'Old draft', type: 'one_time', price: 10 });
  const toolkit = await ensureProduct(DEMO.licensedPid, {
    name: 'Invoice Toolkit',
    type: 'one_time',
    price: 90,
    description: 'A desktop app for invoices: each purchase comes with a license key for three computers.',
    ...details,
    sale_page_url: 'https://example.com/toolkit',
    image_url: demoCoverUrl(config, 'toolkit'),
    license_keys: { enabled: true, activation_limit: 3 },
  });

  // The files are real uploads, served under {cdn_url} as every upload is.
  const uploadText = async (pid: string, name: string, text: string) => {
    if ((await files.list(storeId, pid)).length) return;
    const storage = get<FileStorage>(FILE_STORAGE);
    const key = newStorageKey();
    const contentType = 'text/plain; charset=utf-8';
    const { size } = await storage.put(key, Readable.from(Buffer.from(text, 'utf8')), contentType);
    await files.add(storeId, pid, { name } as never, { originalname: name, key, size, contentType });
  };
  await uploadText(DEMO.guidePid, 'Digital Marketing Guide.txt', DEMO_GUIDE_TEXT);
  await uploadText(DEMO.checklistPid, 'Launch Checklist.txt', DEMO_CHECKLIST_TEXT);
  await uploadText(DEMO.licensedPid, 'Invoice Toolkit - read me.txt', DEMO_TOOLKIT_TEXT);
  const clubFiles = await files.list(storeId, DEMO.clubPid);
  if (!clubFiles.some((f) => f.name === 'Lesson 1 (link)'))
    await files.add(storeId, DEMO.clubPid, { name: 'Lesson 1 (link)', link: `${config.urls.base}/docs` });
  if (!clubFiles.some((f) => f.name === DEMO.oldFileName))
    await files.add(storeId, DEMO.clubPid, { name: DEMO.oldFileName, link: 'https://example.com/old-lesson.pdf' });

  const ensurePlan = async (planId: string, name: string, price: number, interval: 'month' | 'year') => {
    if (await plans.findForStore(storeId, planId)) return;
    await plans.create(storeId, { product_pid: club.pid, name, price, interval } as never, planId);
  };
  await ensurePlan(DEMO.planId, 'Monthly', 300, 'month');
  await ensurePlan(DEMO.yearlyPlanId, 'Yearly (old)', 2800, 'year');
  // The products the demo sells are approved, so that their buy links open (README, *Buy links*).
  for (const pid of [DEMO.guidePid, DEMO.clubPid, DEMO.licensedPid]) {
    if ((await products.findForStore(storeId, pid))?.reviewStatus !== 'draft') continue;
    await products.publish(storeId, pid);
    await products.review(pid, 'approve');
  }

  const discounts = get(DiscountsService);
  const hasDiscount = (code: string) =>
    discounts.get(storeId, code).then(
      () => true,
      () => false,
    );
  if (!(await hasDiscount(DEMO.coupon)))
    await discounts.create(storeId, { code: DEMO.coupon, type: 'percent', value: 10 } as never);
  // What the create examples made goes, so that they run again.
  for (const code of [DEMO.exampleCoupon, 'MINUS50'])
    if (await hasDiscount(code)) await discounts.delete(storeId, code);
  await repo.removeExampleLeftovers(storeId);
  await products.backToDraft(storeId, DEMO.checklistPid);

  const bumps = get(OrderBumpsService);
  if ((await repo.ids())?.bumpId == null)
    await bumps.create(storeId, DEMO.clubPid, { productPid: DEMO.checklistPid, price: 49.9 });

  const affiliates = get(AffiliatesService);
  const ids = (await repo.ids())!;
  if (ids.affiliateId === null)
    await affiliates.create(storeId, { name: 'Demo Partner', email: DEMO.affiliateEmail, commissionPercent: 10 });
  if (ids.oldAffiliateId === null)
    await affiliates.create(storeId, { name: 'Old Partner', email: DEMO.oldAffiliateEmail, commissionPercent: 5 });

  const webhooks = get(WebhooksService);
  // The examples' webhooks exist for the webhook operations' examples to act on; they are
  // inactive, so the demo's orders send them nothing (the health route answers GET only, and
  // example.com is nobody's receiver). `--webhook-url` adds an active one that receives every order.
  if (ids.webhookId === null)
    await webhooks.create(storeId, {
      url: `${config.urls.base}/v1/health`,
      events: ['order_approved'],
      name: DEMO.webhookName,
    } as never);
  if (ids.oldWebhookId === null)
    await webhooks.create(storeId, {
      url: 'https://example.com/hooks/old',
      events: ['order_approved'],
      name: DEMO.oldWebhookName,
    } as never);
  const examples = (await repo.ids())!;
  for (const id of [examples.webhookId, examples.oldWebhookId])
    if (id !== null) await webhooks.update(storeId, id, { status: 'inactive' } as never);
  const webhook = webhookUrl
    ? (
        await webhooks.create(storeId, {
          url: webhookUrl,
          events: ['order_approved', 'order_cancelled', 'order_refund'],
          name: 'Quick start webhook',
        } as never)
      ).webhook
    : null;
  const refreshed = (await repo.ids())!;
  if (refreshed.deliveryId === null && refreshed.webhookId !== null)
    await webhooks.sendTest(storeId, refreshed.webhookId).catch(() => undefined);

  // Paid orders for the examples that read, refund and cancel (the sandbox pays them; without it, none).
  const orders = get(OrdersService);
  const ordering = { id: storeId, currency: (await sellers.findStore(storeId))!.currency };
  const payments = get(CheckoutPaymentsService);
  const paid = async (body: Record<string, unknown>) => {
    const session = await orders.create(ordering, body as never);
    if (!payments.isTestMode()) return;
    await payments.pay(session.payToken, { method: 'mpesa', paymentNumber: '841234567', bumpIds: [] }, null);
  };
  const one = { amount: 150, product_pid: guide.pid, customer: CUSTOMER };
  if (refreshed.orderNumber === null) await paid({ ...one, tracking: { utm_campaign: DEMO.shownCampaign } });
  if (refreshed.refundOrderNumber === null) await paid({ ...one, tracking: { utm_campaign: DEMO.refundCampaign } });
  if (refreshed.subscriptionId === null)
    await paid({ amount: 300, product_pid: club.pid, plan_id: DEMO.planId, customer: CUSTOMER });
  if (refreshed.licenseId === null)
    await paid({
      amount: 90,
      product_pid: toolkit.pid,
      customer: CUSTOMER,
      tracking: { utm_campaign: DEMO.licenseCampaign },
    });
  const license = await refreshLicense(licenses, repo, storeId);

  const { token } = await get(ApiKeysService).create({
    storeId,
    sellerId: seller.id,
    name: 'Demo key',
    scopes: ALL_SCOPES,
  });
  const session = await orders.create(ordering, one as never);
  return {
    seller: { email: DEMO.sellerEmail, password },
    store_id: storeId,
    api_key: token,
    product_pid: DEMO.guidePid,
    recurring_product_pid: DEMO.clubPid,
    plan_id: DEMO.planId,
    discount_code: DEMO.coupon,
    license: license && { product_pid: DEMO.licensedPid, id: license.id, key: license.key },
    webhook: webhook ? { id: webhook.id, url: webhook.url, secret: webhook.secret } : null,
    checkout_url: session.checkoutUrl,
  };
}

/**
 * The demo's license key as its examples need it: enabled (the disable example may have left it
 * disabled), without the instance the activate example adds, and with the instance the
 * deactivate example frees. All through billing's license service, as the API does it.
 */
async function refreshLicense(
  licenses: LicensesService,
  repo: DemoRepository,
  storeId: number,
): Promise<{ id: number; key: string } | null> {
  const { licenseId, licenseKey } = (await repo.ids())!;
  if (licenseId === null || licenseKey === null) return null;
  let { status, instances } = await licenses.get(storeId, licenseId);
  if (status === 'disabled') ({ status, instances } = await licenses.setEnabled(storeId, licenseId, true));
  for (const instance of instances.filter((i) => i.name === DEMO.exampleInstanceName))
    await licenses.deactivate(licenseKey, instance.id);
  if (status === 'active' && !instances.some((i) => i.name === DEMO.instanceName))
    await licenses.activate(licenseKey, DEMO.instanceName);
  return { id: licenseId, key: licenseKey };
}
