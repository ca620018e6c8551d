import { applyDecorators, INestApplication, RequestMethod, SetMetadata, Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import {
  ApiConflictResponse,
  ApiExtraModels,
  ApiHeader,
  ApiNotFoundResponse,
  ApiParam,
  ApiProperty,
  ApiPropertyOptions,
  ApiResponse,
  ApiUnprocessableEntityResponse,
  DECORATORS,
  DocumentBuilder,
  getSchemaPath,
  OpenAPIObject,
  SwaggerModule,
} from '@nestjs/swagger';
import type {
  HeaderObject,
  ReferenceObject,
  SchemaObject,
} from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { ErrorResponseDto, ValidationErrorResponseDto } from './error-response.dto';

/*
 * The OpenAPI description is generated from decorators (decisions §13). Everything a client must be
 * able to trust is written here once, so that a new endpoint gets it by using these helpers:
 *
 * - properties: `ApiNullable` for anything that may be `null` (never `nullable: true`, which
 *   OpenAPI 3.1 does not have), `ApiTimestamp` for every timestamp (`format: date-time`);
 * - errors: `ApiNotFound`, `ApiConflict`, `ApiValidationFailed` with the messages the service sends;
 * - what follows from the route itself, added by `applyResponseConventions` before the document is
 *   built: 400 (malformed JSON) and 413 on every operation that takes a body, the rate-limit headers
 *   on every answer of an authenticated operation (`ApiRateLimited`, applied by `@RequireScopes`),
 *   `Idempotent-Replayed` on the success of an `@Idempotent()` one.
 */

// ---------------------------------------------------------------------------------------------
// Examples of the right shape (decisions §13): what the service really issues and says.

export const EXAMPLE = {
  productPid: 'prod_4fQ9xZ2LmN8pR1sT',
  planId: 'plan_7Hk2mQ9xW3nB5vLc',
  orderNumber: 'ORD-8K2M4Q7XPA3Z',
  timestamp: '2026-01-31T10:00:00.000000Z',
} as const;

// ---------------------------------------------------------------------------------------------
// Properties

type Scalar = 'string' | 'integer' | 'number' | 'boolean';

export interface NullableOptions extends Pick<
  ApiPropertyOptions,
  'description' | 'example' | 'default' | 'deprecated'
> {
  /** A DTO class (nullable object), or a scalar type; `enum` alone implies `string`. */
  type?: Type<unknown> | Scalar;
  isArray?: boolean;
  format?: string;
  enum?: readonly (string | number)[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  /** The non-null schema written out, for what the options above cannot say (a `oneOf`, a map). */
  schema?: SchemaObject;
  /** Present in every response (default) or optional in a request. */
  required?: boolean;
}

function isModel(type: NullableOptions['type']): type is Type<unknown> {
  return typeof type === 'function';
}

/**
 * A property whose value may be `null`: `oneOf: [<schema>, {type: 'null'}]` (OpenAPI 3.1). A DTO
 * class becomes a `$ref` to its schema (registered as an extra model of the declaring class, so it
 * must be declared above it); a nullable enum lists `null` among its values.
 */
export function ApiNullable(options: NullableOptions = {}): PropertyDecorator {
  const {
    type,
    isArray,
    format,
    enum: values,
    minimum,
    maximum,
    minLength,
    maxLength,
    required = true,
    schema: raw,
    ...rest
  } = options;
  let schema: SchemaObject | ReferenceObject;
  if (raw) {
    schema = raw;
  } else if (isModel(type)) {
    schema = { $ref: getSchemaPath(type) };
  } else {
    schema = { type: type ?? (values && typeof values[0] === 'number' ? 'number' : 'string') };
    Object.assign(schema, definedOnly({ format, minimum, maximum, minLength, maxLength }));
    if (values) schema.enum = [...values];
  }
  if (isArray) schema = { type: 'array', items: schema };
  const property = ApiProperty({
    ...definedOnly(rest),
    required,
    ...(values && !isArray ? { enum: [...values, null] } : {}),
    // A `oneOf` of alternatives gains `null` as one more.
    oneOf: [
      ...('oneOf' in schema && schema.oneOf && Object.keys(schema).length === 1 ? schema.oneOf : [schema]),
      { type: 'null' },
    ],
  } as ApiPropertyOptions);
  return (target, key) => {
    if (isModel(type)) ApiExtraModels(type)(target.constructor);
    property(target, key);
  };
}

export interface TimestampOptions extends Pick<ApiPropertyOptions, 'description' | 'example'> {
  nullable?: boolean;
  required?: boolean;
}

/**
 * A timestamp (decisions §6: six fractional digits, UTC), `format: date-time`. With `nullable`,
 * null until the event happens.
 */
export function ApiTimestamp(options: TimestampOptions = {}): PropertyDecorator {
  const { nullable, required = true, example = nullable ? null : EXAMPLE.timestamp, description } = options;
  if (nullable) return ApiNullable({ type: 'string', format: 'date-time', example, description, required });
  return ApiProperty({ type: 'string', format: 'date-time', example, description, required });
}

function definedOnly<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

// ---------------------------------------------------------------------------------------------
// Parameters

/** A path parameter that holds a numeric id. */
export const ApiIdParam = (name: string, description?: string, example = 7) =>
  ApiParam({ name, schema: { type: 'integer', minimum: 1 }, description, example });

/**
 * Path `{id}` that is a numeric id or a public reference (order number, pid, code…).
 * `example` may name several examples, e.g. `{ id: '7', code: 'SAVE10' }`.
 */
export const ApiRefParam = (description: string, example: string | Record<string, string>) =>
  ApiParam({
    name: 'id',
    schema: { type: 'string' },
    description,
    ...(typeof example === 'string'
      ? { example }
      : { examples: Object.fromEntries(Object.entries(example).map(([key, value]) => [key, { value }])) }),
  });

// ---------------------------------------------------------------------------------------------
// Errors (spec §7, decisions §5): `description` says when; `message` is the exact text sent.

const errorExample = (message: string) => ({ status: 'error', message });

export const ApiNotFound = (description?: string, message = 'Resource not found.') =>
  ApiNotFoundResponse({ description: description ?? message, type: ErrorResponseDto, example: errorExample(message) });

export const ApiConflict = (message: string, description?: string) =>
  ApiConflictResponse({ description: description ?? message, type: ErrorResponseDto, example: errorExample(message) });

/** 422 with field errors (decisions §6); `exampleErrors` shows typical ones for this endpoint. */
export const ApiValidationFailed = (exampleErrors?: Record<string, string[]>) =>
  ApiUnprocessableEntityResponse({
    description: 'Validation failed.',
    type: ValidationErrorResponseDto,
    ...(exampleErrors && { example: { status: 'error', message: 'Validation failed.', errors: exampleErrors } }),
  });

// ---------------------------------------------------------------------------------------------
// Response headers

const integerHeader = (description: string): HeaderObject => ({
  description,
  required: true,
  schema: { type: 'integer', minimum: 0 },
});

/** decisions §9: on every answer to a valid token (401s have none: the token is not known yet). */
export const RATE_LIMIT_HEADERS: Record<string, HeaderObject> = {
  'RateLimit-Limit': integerHeader('Requests allowed per token per minute (`RATE_LIMIT_PER_MINUTE`).'),
  'RateLimit-Remaining': integerHeader('Requests left in the current window.'),
  'RateLimit-Reset': integerHeader('Seconds until the window resets.'),
};

export const RETRY_AFTER_HEADER: Record<string, HeaderObject> = {
  'Retry-After': integerHeader('Seconds to wait before trying again.'),
};

export const IDEMPOTENT_REPLAYED_HEADER: Record<string, HeaderObject> = {
  'Idempotent-Replayed': {
    description:
      'Present (`true`) when this is the stored first response to the same `Idempotency-Key` and body (decisions §9).',
    required: false,
    schema: { type: 'string', enum: ['true'] },
  },
};

/** RFC 6750 challenge of a 401 or a scope 403 (decisions §3.1). */
export const wwwAuthenticateHeader = (example: string): Record<string, HeaderObject> => ({
  'WWW-Authenticate': { description: 'RFC 6750 challenge.', required: true, schema: { type: 'string' }, example },
});

// ---------------------------------------------------------------------------------------------
// Conventions that follow from the route: markers, then one pass before the document is built.

const RATE_LIMITED = 'api-docs:rate-limited';
const IDEMPOTENT = 'api-docs:idempotent';

/** Answers of this operation carry the rate-limit headers, and it may answer 429. */
export const ApiRateLimited = () =>
  applyDecorators(
    SetMetadata(RATE_LIMITED, true),
    ApiResponse({
      status: 429,
      description: '`Too many requests.` — over `RATE_LIMIT_PER_MINUTE` for this token.',
      type: ErrorResponseDto,
      example: errorExample('Too many requests.'),
      headers: { ...RETRY_AFTER_HEADER, ...RATE_LIMIT_HEADERS },
    }),
  );

/** The `Idempotency-Key` header of an authenticated POST (decisions §9) and the answers it adds. */
export const ApiIdempotencyKey = () =>
  applyDecorators(
    SetMetadata(IDEMPOTENT, true),
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description:
        'Up to 255 characters, a new one for each new request (for example a UUID). A repeat with the same body within 24 h replays the first response (`Idempotent-Replayed: true`).',
    }),
  );

type ResponseEntry = { description?: string; headers?: Record<string, HeaderObject>; [key: string]: unknown };

const BODY_METHODS = new Set([RequestMethod.POST, RequestMethod.PUT, RequestMethod.PATCH]);

/**
 * Adds to every route handler's response metadata what follows from the route (the list at the top
 * of this file). Runs before `SwaggerModule.createDocument`; idempotent, so several apps in one
 * process (tests) see the same metadata.
 */
export function applyResponseConventions(app: INestApplication): void {
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as Type<unknown> | undefined;
      if (!controller?.prototype) continue;
      for (const name of Object.getOwnPropertyNames(controller.prototype)) {
        const handler = Object.getOwnPropertyDescriptor(controller.prototype, name)?.value as object | undefined;
        if (typeof handler !== 'function' || Reflect.getMetadata(PATH_METADATA, handler) === undefined) continue;
        if (
          Reflect.getMetadata(DECORATORS.API_EXCLUDE_ENDPOINT, handler) ||
          Reflect.getMetadata(DECORATORS.API_EXCLUDE_CONTROLLER, controller)
        )
          continue;
        applyConventions(controller, handler);
      }
    }
  }
}

/**
 * Documents one more error body under `status`: alone when the operation has none, otherwise as
 * an alternative (`anyOf`) to what it declares, so both bodies validate.
 */
function addError(
  controller: Type<unknown>,
  responses: Record<string, ResponseEntry>,
  status: number,
  message: string,
  when: string,
): void {
  const line = `\`${message}\` — ${when}.`;
  const existing = responses[String(status)];
  if (!existing) {
    responses[String(status)] = { description: line, type: ErrorResponseDto, example: errorExample(message) };
    return;
  }
  if (existing.description?.includes(message)) return;
  const declared = typeof existing.type === 'function' ? (existing.type as Type<unknown>) : undefined;
  const alternatives = declared
    ? [{ $ref: getSchemaPath(declared) }]
    : ((existing.schema as SchemaObject | undefined)?.anyOf ?? []);
  if (declared) ApiExtraModels(declared)(controller);
  ApiExtraModels(ErrorResponseDto)(controller);
  const { type: _type, schema: _schema, example, examples, ...rest } = existing;
  const named = (examples ?? (example !== undefined ? { documented: { value: example } } : {})) as Record<
    string,
    unknown
  >;
  responses[String(status)] = {
    ...rest,
    description: existing.description ? `${existing.description}\n\n${line}` : line,
    schema:
      declared === ErrorResponseDto
        ? { $ref: getSchemaPath(ErrorResponseDto) }
        : { anyOf: [...alternatives, { $ref: getSchemaPath(ErrorResponseDto) }] },
    examples: {
      ...named,
      [message
        .replace(/[^A-Za-z0-9]+/g, '-')
        .replace(/^-|-$/g, '')
        .toLowerCase()]: { value: errorExample(message) },
    },
  };
}

function applyConventions(controller: Type<unknown>, handler: object): void {
  const own = (Reflect.getMetadata(DECORATORS.API_RESPONSE, handler) ?? {}) as Record<string, ResponseEntry>;
  const inherited = (Reflect.getMetadata(DECORATORS.API_RESPONSE, controller) ?? {}) as Record<string, ResponseEntry>;
  const responses: Record<string, ResponseEntry> = { ...inherited, ...own };
  const flag = (key: string) => Boolean(Reflect.getMetadata(key, handler) ?? Reflect.getMetadata(key, controller));

  if (BODY_METHODS.has(Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod)) {
    addError(
      controller,
      responses,
      400,
      'Malformed JSON body.',
      'the body is not JSON, not an object or array, or nested deeper than 32 levels',
    );
    addError(controller, responses, 413, 'Payload too large.', 'a body over 1 MiB');
  }
  // decisions §5: any operation may meet these.
  addError(
    controller,
    responses,
    500,
    'Internal server error.',
    'anything unexpected (logged with the request id; never a stack or SQL)',
  );
  if (!responses['503']) {
    addError(controller, responses, 503, 'Service temporarily unavailable.', 'the database cannot be reached');
    const unavailable: ResponseEntry = responses['503'];
    unavailable.headers = { ...RETRY_AFTER_HEADER };
  }
  const rateLimited = flag(RATE_LIMITED);
  const idempotent = flag(IDEMPOTENT);
  if (idempotent) {
    addError(
      controller,
      responses,
      409,
      'A request with this idempotency key is still in progress.',
      'the same `Idempotency-Key` is in flight',
    );
    addError(
      controller,
      responses,
      422,
      'Idempotency key reused with a different request.',
      'the same `Idempotency-Key` came with another body',
    );
  }
  for (const [status, entry] of Object.entries(responses)) {
    const code = Number(status);
    const headers = { ...entry.headers };
    // Only once the token was counted: not before (400/413 of body parsing, 401), nor where the
    // failure may come first (500, 503).
    if (rateLimited && ![400, 401, 413, 500, 503].includes(code)) Object.assign(headers, RATE_LIMIT_HEADERS);
    if (idempotent && code >= 200 && code < 300) Object.assign(headers, IDEMPOTENT_REPLAYED_HEADER);
    responses[status] = Object.keys(headers).length ? { ...entry, headers } : entry;
  }
  Reflect.defineMetadata(DECORATORS.API_RESPONSE, responses, handler);
}

// ---------------------------------------------------------------------------------------------
// The document

/** The global tag list (spec §1's tags and the ones this service adds); every operation uses one. */
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
  Files: 'Files and external links delivered with a product.',
  Webhooks: 'Event subscriptions, their delivery log and redelivery.',
  Discounts: 'Coupon codes.',
  Affiliates: 'Affiliates and their commissions.',
  Reports: 'Sales figures per day: what the dashboard home page shows.',
  Payments: 'Callbacks of payment gateways.',
};

export interface OpenApiOptions {
  title: string;
  description: string;
  version: string;
  /** `{base_url}`: the server of every path. */
  baseUrl: string;
  /** `{web_url}/oauth/authorize`. */
  authorizationUrl: string;
  /** Every scope and what it allows (spec §5.4). */
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
    .addServer(options.baseUrl)
    .addBearerAuth({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'opaque',
      description: 'API key (`sk_…`) or OAuth access token (`at_…`).',
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
