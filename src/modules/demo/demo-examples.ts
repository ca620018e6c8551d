import type { OpenAPIObject } from '@nestjs/swagger';
import { DEMO, DemoIds } from './demo-identifiers';

/** An example value: fixed, or one of the demo store's ids (absent until `seed:demo` made it). */
type Value = string | number | ((ids: DemoIds) => string | number | null);
type Body = Record<string, unknown>;

interface OperationExamples {
  /** Path and query parameters by name. */
  params?: Record<string, Value>;
  /**
   * The request body: one example, several by name (Swagger UI offers the first), or one made of the
   * demo store's ids (null until `seed:demo` made them: the body keeps the description's own example).
   */
  body?: Body | { named: Record<string, { summary: string; value: Body }> } | ((ids: DemoIds) => Body | null);
}

const { customer } = DEMO;
const guide = { id: DEMO.guidePid };
const plan = { id: DEMO.planId };

/**
 * The request example of every API operation, naming the demo store of `npm run seed:demo`
 * (README, "Try it in Swagger UI"): with the demo key, each answers 2xx in "Try it out", in the
 * order of the README (reads, creates, changes, deletes). A delete names a resource its own
 * create example made, or one `seed:demo` keeps for it; running `seed:demo` again puts them back.
 * The license examples name the key of the demo's paid order of `prod_demo_toolkit`: disable, then
 * enable it; activate an instance, validate the key with the instance `seed:demo` keeps, deactivate
 * that one. Left without: the OAuth token endpoints (a code or token of a real grant) and the payment
 * callback (a gateway's signature).
 */
export const OPERATION_EXAMPLES: Record<string, OperationExamples> = {
  products_get: { params: guide },
  products_update: {
    params: guide,
    body: { description: 'A practical guide to selling digital products online.' },
  },
  products_publish: { params: { id: DEMO.checklistPid } },
  products_create: {
    body: {
      name: 'Email Marketing Playbook',
      type: 'one_time',
      price: 120,
      description: 'Twelve email sequences that sell.',
      sale_page_url: 'https://example.com/playbook',
      category: 'education',
      subcategory: 'marketing',
      contact_number: customer.mobile_number,
    },
  },
  products_delete: { params: { id: DEMO.draftPid } },
  product_files_list: { params: guide },
  product_files_create: {
    params: guide,
    body: {
      named: {
        link: {
          summary: 'A file hosted elsewhere',
          value: { name: 'Bonus: launch checklist', link: 'https://example.com/launch-checklist.pdf' },
        },
      },
    },
  },
  product_files_delete: { params: { id: DEMO.clubPid, file_id: (ids) => ids.oldFileId } },
  plans_create: {
    body: { product_pid: DEMO.clubPid, name: 'Quarterly', price: 800, interval: 'month', interval_count: 3 },
  },
  plans_create_alias1: {
    body: { product_pid: DEMO.clubPid, name: 'Yearly', price: 3000, interval: 'year', interval_count: 1 },
  },
  plans_get: { params: plan },
  plans_update: { params: plan, body: { name: 'Monthly', price: 300 } },
  plans_subscribers: { params: plan },
  plans_delete: { params: { id: DEMO.yearlyPlanId } },
  order_bumps_list: { params: guide },
  order_bumps_create: { params: guide, body: { product_pid: DEMO.checklistPid, price: 49.9 } },
  order_bumps_remove: { params: { id: DEMO.clubPid, bump_id: (ids) => ids.bumpId } },
  orders_create: {
    body: {
      named: {
        oneTime: {
          summary: 'The guide, with the WELCOME10 coupon',
          value: {
            amount: 150,
            product_pid: DEMO.guidePid,
            customer,
            coupon_code: DEMO.coupon,
            return_url: 'https://example.com/thanks',
            cancel_url: 'https://example.com/cart',
            tracking: { utm_source: 'newsletter', utm_campaign: 'launch' },
          },
        },
        recurring: {
          summary: 'The club, on its monthly plan',
          value: { amount: 300, product_pid: DEMO.clubPid, plan_id: DEMO.planId, customer },
        },
      },
    },
  },
  orders_list: {
    params: { status: 'approved', product: DEMO.guidePid, customer: (ids) => ids.customerId, email: customer.email },
  },
  orders_get: { params: { id: (ids) => ids.orderNumber } },
  orders_refund: { params: { id: (ids) => ids.refundOrderNumber } },
  downloads_list: { params: { id: (ids) => ids.orderNumber } },
  downloads_reset: { params: { id: (ids) => ids.orderNumber } },
  customers_list: { params: { email: customer.email } },
  customers_get: { params: { id: (ids) => ids.customerId } },
  customers_orders: { params: { id: (ids) => ids.customerId, status: 'approved' } },
  subscriptions_list: { params: { status: 'active', plan: DEMO.planId, customer: (ids) => ids.customerId } },
  subscriptions_get: { params: { id: (ids) => ids.subscriptionId } },
  subscriptions_cancel: { params: { id: (ids) => ids.subscriptionId }, body: { at_period_end: true } },
  discounts_create: {
    body: {
      named: {
        percent: {
          summary: '20 % off, 100 uses, until the end of 2027',
          value: {
            code: DEMO.exampleCoupon,
            type: 'percent',
            value: 20,
            uses_limit: 100,
            expires_at: '2027-12-31T23:59:59Z',
          },
        },
        fixed: {
          summary: '50 off once per customer',
          value: { code: 'MINUS50', type: 'fixed', value: 50, single_use: true },
        },
      },
    },
  },
  discounts_get: { params: { id: DEMO.coupon } },
  discounts_update: {
    params: { id: DEMO.coupon },
    body: {
      named: {
        limit: { summary: 'Allow 1000 uses', value: { uses_limit: 1000 } },
        expire: { summary: 'Expire at the end of 2027', value: { expires_at: '2027-12-31T23:59:59Z' } },
        neverExpire: { summary: 'Never expire', value: { never_expires: true } },
      },
    },
  },
  discounts_delete: { params: { id: DEMO.exampleCoupon } },
  webhooks_create: {
    body: {
      url: 'https://example.com/hooks/orders',
      events: ['order_approved', 'order_refund'],
      product_details: DEMO.guidePid,
      name: 'Orders to CRM',
    },
  },
  webhooks_get: { params: { id: (ids) => ids.webhookId } },
  webhooks_update: {
    params: { id: (ids) => ids.webhookId },
    body: { name: DEMO.webhookName, events: ['order_approved', 'order_cancelled', 'order_refund'] },
  },
  webhooks_test: { params: { id: (ids) => ids.webhookId } },
  webhooks_deliveries: { params: { id: (ids) => ids.webhookId } },
  webhooks_redeliver: { params: { id: (ids) => ids.webhookId, delivery_id: (ids) => ids.deliveryId } },
  webhooks_remove: { params: { id: (ids) => ids.oldWebhookId } },
  affiliates_create: {
    body: { name: 'Joana Mucavele', email: DEMO.exampleAffiliateEmail, commission_percent: 12.5 },
  },
  affiliates_get: { params: { id: (ids) => ids.affiliateId } },
  affiliates_remove: { params: { id: (ids) => ids.oldAffiliateId } },
  licenses_list: {
    params: { product: DEMO.licensedPid, order: (ids) => ids.licenseOrderNumber, status: 'active' },
  },
  licenses_get: { params: { id: (ids) => ids.licenseId } },
  licenses_disable: { params: { id: (ids) => ids.licenseId } },
  licenses_enable: { params: { id: (ids) => ids.licenseId } },
  public_licenses_activate: {
    body: (ids) =>
      ids.licenseKey === null ? null : { license_key: ids.licenseKey, instance_name: DEMO.exampleInstanceName },
  },
  public_licenses_validate: {
    body: (ids) =>
      ids.licenseKey === null
        ? null
        : { license_key: ids.licenseKey, ...(ids.instanceId !== null ? { instance_id: ids.instanceId } : {}) },
  },
  public_licenses_deactivate: {
    body: (ids) =>
      ids.licenseKey === null || ids.instanceId === null
        ? null
        : { license_key: ids.licenseKey, instance_id: ids.instanceId },
  },
};

type Operation = {
  operationId?: string;
  parameters?: Array<{
    name: string;
    in: string;
    example?: unknown;
    examples?: unknown;
    schema?: { example?: unknown };
  }>;
  requestBody?: { content: Record<string, { example?: unknown; examples?: unknown }> };
};

/**
 * The description with the demo examples in place: fixed ones always, the demo store's ids when
 * `ids` has them (a parameter whose resource the store lacks keeps no example rather than a wrong one).
 */
export function withDemoExamples(document: OpenAPIObject, ids: DemoIds | null): OpenAPIObject {
  const doc = structuredClone(document);
  for (const item of Object.values(doc.paths)) {
    for (const operation of Object.values(item as Record<string, Operation>)) {
      const examples = operation?.operationId ? OPERATION_EXAMPLES[operation.operationId] : undefined;
      if (!examples) continue;
      for (const parameter of operation.parameters ?? []) {
        const value = examples.params?.[parameter.name];
        if (value === undefined) continue;
        const resolved = typeof value === 'function' ? (ids ? value(ids) : null) : value;
        delete parameter.examples;
        delete parameter.example;
        if (parameter.schema) delete parameter.schema.example;
        if (resolved !== null) parameter.example = resolved;
      }
      const body = typeof examples.body === 'function' ? (ids ? examples.body(ids) : null) : examples.body;
      if (!body || !operation.requestBody) continue;
      for (const media of Object.values(operation.requestBody.content)) {
        delete media.example;
        delete media.examples;
        if ('named' in body) media.examples = body.named;
        else media.example = body;
      }
    }
  }
  return doc;
}
