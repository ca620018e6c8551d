import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { applyResponseConventions } from './api-response-conventions';

// ---------------------------------------------------------------------------------------------
// The document

/** The global tag list (the contract's tags and the ones this service adds); every operation uses one. */
export const API_TAGS: Record<string, string> = {
  Health: 'Liveness and database reachability.',
  OAuth: 'Token exchange, refresh and revocation for apps acting for a seller (RFC 6749, 7009, 7636).',
  User: 'The seller behind the token and their store.',
  Scopes: 'The scopes of the API and the endpoints each unlocks.',
  Products: 'Products, their review (publish) and order bumps.',
  Plans: 'Subscription plans of recurring products and their subscribers.',
  Orders: 'Checkout sessions, orders and refunds.',
  Customers: 'Customers of the store and their orders.',
  Subscriptions: 'Subscriptions that renew, and their cancellation.',
  Licenses:
    "License keys: the seller's list, disable and enable; activate, validate and deactivate for the seller's software (no token: the key is the credential).",
  Files: 'Files and external links delivered with a product.',
  Webhooks: 'Event subscriptions, their delivery log and redelivery.',
  Discounts: 'Coupon codes.',
  Affiliates: 'Affiliates and their commissions.',
  Reports: 'Sales figures per day: what the dashboard home page shows.',
  Payments: 'Callbacks of payment gateways.',
  'Test mode': "The store's test data: test keys (`sk_test_…`) reach only it.",
};

export interface OpenApiOptions {
  title: string;
  description: string;
  version: string;
  /** `{base_url}`: the server of every path. */
  baseUrl: string;
  /** `{web_url}/oauth/authorize`. */
  authorizationUrl: string;
  /** Every scope and what it allows (the OpenAPI description). */
  scopes: Record<string, string>;
}

/** `OrdersController.create` → `orders_create`; a second path of the same handler → `…_alias1`. */
export function operationId(controllerKey: string, methodKey: string): string {
  const [, method, alias] = /^(.*?)(?:\[(\d+)\])?$/.exec(methodKey)!;
  const snake = (value: string) =>
    value
      .replace(/OAuth/g, 'Oauth')
      .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
      .toLowerCase();
  const id = `${snake(controllerKey.replace(/Controller$/, ''))}_${snake(method)}`;
  return alias && alias !== '0' ? `${id}_alias${alias}` : id;
}

/**
 * The OpenAPI 3.1 description: `bearer` (API key or access token) and `oauth2` (authorization code
 * with PKCE, every scope) side by side, the global tag list, `orders_create` operation ids.
 */
export function createOpenApiDocument(app: INestApplication, options: OpenApiOptions): OpenAPIObject {
  applyResponseConventions(app);
  const builder = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle(options.title)
    .setDescription(options.description)
    .setVersion(options.version)
    .setLicense('MIT', 'https://opensource.org/licenses/MIT')
    // The paths carry each surface's mount path (`/api/v1/…` under `BASE_URL=…/api`, `/pay/…`), so
    // the server is the origin: a client joining the two calls the route itself.
    .addServer(new URL(options.baseUrl).origin)
    .addBearerAuth({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'opaque',
      description: 'API key (`sk_…`, or `sk_test_…` for test mode) or OAuth access token (`at_…`).',
    })
    .addOAuth2(
      {
        type: 'oauth2',
        description:
          'Authorization code with PKCE (S256). Discovery: RFC 8414 metadata at `/.well-known/oauth-authorization-server` on the host of `{base_url}`.',
        flows: {
          authorizationCode: {
            authorizationUrl: options.authorizationUrl,
            tokenUrl: `${options.baseUrl}/v1/oauth/token`,
            refreshUrl: `${options.baseUrl}/v1/oauth/token`,
            scopes: options.scopes,
          },
        },
      },
      'oauth2',
    );
  for (const [name, description] of Object.entries(API_TAGS)) builder.addTag(name, description);
  return SwaggerModule.createDocument(app, builder.build(), { operationIdFactory: operationId });
}
