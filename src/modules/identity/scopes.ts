/** Every scope of spec §5.4 (and decisions §11's subscriptions scopes), declared once. Routes name them through `@RequireScopes`. */
export const SCOPES = {
  'user.read': 'Read the seller profile and store.',
  'products.read': 'List and read products.',
  'products.write': 'Create, update, delete and publish products.',
  'plans.read': 'List and read plans and their subscribers.',
  'plans.write': 'Create, update and delete plans.',
  'orders.read': 'List and read orders.',
  'orders.write': 'Create checkout sessions and refund orders.',
  'customers.read': 'List and read customers and their orders.',
  'files.read': 'List the files of products.',
  'files.write': 'Upload, link and delete product files.',
  'webhooks.read': 'List and read webhooks and their deliveries.',
  'webhooks.write': 'Create, update and delete webhooks; redeliver events.',
  'discounts.read': 'List and read discounts.',
  'discounts.write': 'Create, update and delete discounts.',
  'affiliates.read': 'List and read affiliates.',
  'affiliates.write': 'Create and delete affiliates.',
  'subscriptions.read': 'List and read subscriptions and the orders of their periods.',
  'subscriptions.write': 'Cancel subscriptions.',
} as const;

export type Scope = keyof typeof SCOPES;

export const ALL_SCOPES = Object.keys(SCOPES) as Scope[];

export function isScope(value: string): value is Scope {
  return Object.prototype.hasOwnProperty.call(SCOPES, value);
}
