/**
 * The demo store of `npm run seed:demo` (README, Quick start): fixed identifiers, so that the
 * request examples of the OpenAPI description name things that exist in it. The first four are
 * the demo's own; the others are there for the examples that change or delete something.
 */
export const DEMO = {
  sellerEmail: 'demo@example.com',
  guidePid: 'prod_demo_guide',
  clubPid: 'prod_demo_club',
  planId: 'plan_demo_monthly',
  coupon: 'WELCOME10',
  /** An order bump offered with the club (the examples remove that offer), and what the publish example submits. */
  checklistPid: 'prod_demo_checklist',
  /** A draft product the delete example removes. */
  draftPid: 'prod_demo_draft',
  /** A plan the delete example removes. */
  yearlyPlanId: 'plan_demo_yearly',
  customer: { name: 'Ana Silva', email: 'ana@example.com', mobile_number: '+258841234567' },
  affiliateEmail: 'partner@example.com',
  oldAffiliateEmail: 'old-partner@example.com',
  webhookName: 'Demo webhook',
  oldWebhookName: 'Old endpoint',
  oldFileName: 'Old lesson (link)',
  /** What the create examples make (seed:demo removes them again, so those examples run again). */
  exampleCoupon: 'SPRING20',
  exampleAffiliateEmail: 'joana@example.com',
  /** The order refunded by the refund example, and the one the read examples show. */
  refundCampaign: 'demo-refund',
  shownCampaign: 'demo-order',
  /** A product with license keys, and the paid order whose key the license examples name. */
  licensedPid: 'prod_demo_toolkit',
  licenseCampaign: 'demo-license',
  /** The instance seed:demo keeps activated on that key (the deactivate example frees it). */
  instanceName: 'Demo laptop',
  /** What the activate example activates (seed:demo deactivates it again, so the limit is never reached). */
  exampleInstanceName: 'Ana’s laptop',
} as const;

/** The numeric ids (and order numbers) of the demo store that the examples need; null until seeded. */
export interface DemoIds {
  storeId: number;
  customerId: number | null;
  subscriptionId: number | null;
  orderNumber: string | null;
  refundOrderNumber: string | null;
  webhookId: number | null;
  oldWebhookId: number | null;
  deliveryId: number | null;
  affiliateId: number | null;
  oldAffiliateId: number | null;
  oldFileId: number | null;
  bumpId: number | null;
  /** The demo order's license key: its id, the key itself, and the instance seed:demo activated. */
  licenseId: number | null;
  licenseKey: string | null;
  instanceId: number | null;
  /** The order that delivered that key. */
  licenseOrderNumber: string | null;
}
