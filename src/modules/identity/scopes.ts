/**
 * Every scope (the OpenAPI description; the subscriptions scopes: billing README, `subscriptions/`), declared once. Routes name them through `@RequireScopes`; plugins add
 * theirs through `definePlugin({ scopes })`, and {@link ScopeRegistry} holds both.
 */
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
  'licenses.read': 'List and read license keys and their activated instances.',
  'licenses.write': 'Disable and enable license keys.',
} as const;

/** A scope of the contract. */
export type CoreScope = keyof typeof SCOPES;

/**
 * A scope as tokens, routes and the guard carry it: one of the contract's, or one a plugin
 * registered. Start-up fails when a route names a scope nobody registered (RouteCatalogService).
 */
export type Scope = CoreScope | (string & {});

/** The contract's scopes; the app's scopes (with plugins') come from `ScopeRegistry.all()`. */
export const ALL_SCOPES = Object.keys(SCOPES) as CoreScope[];

/** `resource.action`, lower case, as the contract spells its scopes. */
export const SCOPE_PATTERN = /^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$/;
