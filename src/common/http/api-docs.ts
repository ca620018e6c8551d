import { applyDecorators, SetMetadata, Type } from '@nestjs/common';
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
  getSchemaPath,
} from '@nestjs/swagger';
import type {
  HeaderObject,
  ReferenceObject,
  SchemaObject,
} from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { ErrorResponseDto, ValidationErrorResponseDto } from './error-response.dto';

/*
 * The decorators the OpenAPI description is generated from (README, *Documenting an endpoint*). Everything a client must
 * be able to trust is written here once, so that a new endpoint gets it by using these helpers:
 *
 * - properties: `ApiNullable` for anything that may be `null` (never `nullable: true`, which
 *   OpenAPI 3.1 does not have), `ApiTimestamp` for every timestamp (`format: date-time`). An input
 *   field takes `null` exactly when it is documented so: the validation pipe refuses it elsewhere;
 * - errors: `ApiNotFound`, `ApiConflict`, `ApiValidationFailed` with the messages the service sends;
 * - what follows from the route itself, added by `applyResponseConventions` before the document is
 *   built: 400 (malformed JSON), 413 and 415 (another type than the route reads) on every operation
 *   that takes a body, the rate-limit headers
 *   on every answer of an authenticated operation (`ApiRateLimited`, applied by `@RequireScopes`),
 *   `Idempotent-Replayed` on the answers of an `@Idempotent()` one that a key replays (successes,
 *   and errors that do not ask for a retry).
 */

// ---------------------------------------------------------------------------------------------
// Examples of the right shape (README, *Documenting an endpoint*): what the service really issues and says.

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
 * A timestamp (six fractional digits, UTC), `format: date-time`. With `nullable`,
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
// Errors (the OpenAPI description): `description` says when; `message` is the exact text sent.

export const errorExample = (message: string) => ({ status: 'error', message });

export const ApiNotFound = (description?: string, message = 'Resource not found.') =>
  ApiNotFoundResponse({ description: description ?? message, type: ErrorResponseDto, example: errorExample(message) });

export const ApiConflict = (message: string, description?: string) =>
  ApiConflictResponse({ description: description ?? message, type: ErrorResponseDto, example: errorExample(message) });

/** 422 with field errors (the OpenAPI description); `exampleErrors` shows typical ones for this endpoint. */
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

/** On every answer to a valid token (401s have none: the token is not known yet). */
export const RATE_LIMIT_HEADERS: Record<string, HeaderObject> = {
  'RateLimit-Limit': integerHeader('Requests allowed per token per minute (`RATE_LIMIT_PER_MINUTE`).'),
  'RateLimit-Remaining': integerHeader('Requests left in the current window.'),
  'RateLimit-Reset': integerHeader('Seconds until the window resets.'),
};

/** The same headers of a route limited per client IP (the public license API). */
export const PER_IP_RATE_LIMIT_HEADERS: Record<string, HeaderObject> = {
  'RateLimit-Limit': integerHeader('Requests allowed per IP per minute.'),
  'RateLimit-Remaining': integerHeader('Requests left in the current window.'),
  'RateLimit-Reset': integerHeader('Seconds until the window resets.'),
};

export const RETRY_AFTER_HEADER: Record<string, HeaderObject> = {
  'Retry-After': integerHeader('Seconds to wait before trying again.'),
};

export const IDEMPOTENT_REPLAYED_HEADER: Record<string, HeaderObject> = {
  'Idempotent-Replayed': {
    description:
      'Present (`true`) when this is the stored first response to the same `Idempotency-Key` and body (a success, or an error that does not ask for a retry).',
    required: false,
    schema: { type: 'string', enum: ['true'] },
  },
};

/** RFC 6750 challenge of a 401 or a scope 403 (the security schemes of the OpenAPI description). */
export const wwwAuthenticateHeader = (example: string): Record<string, HeaderObject> => ({
  'WWW-Authenticate': { description: 'RFC 6750 challenge.', required: true, schema: { type: 'string' }, example },
});

// ---------------------------------------------------------------------------------------------
// Markers of what follows from the route; api-response-conventions.ts applies them in one pass
// before the document is built.

/** Metadata keys read by `applyResponseConventions` (api-response-conventions.ts). */
export const RATE_LIMITED = 'api-docs:rate-limited';
/** Set (with RATE_LIMITED) where the limit counts per client IP rather than per token. */
export const RATE_LIMITED_PER_IP = 'api-docs:rate-limited-per-ip';
export const IDEMPOTENT = 'api-docs:idempotent';

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

/** The `Idempotency-Key` header of an authenticated POST (README, *Choices where the contract is silent*) and the answers it adds. */
export const ApiIdempotencyKey = () =>
  applyDecorators(
    SetMetadata(IDEMPOTENT, true),
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description:
        'Up to 255 characters, a new one for each new request (for example a UUID). A repeat with the same body within 24 h replays the first response (`Idempotent-Replayed: true`); with another body it is 422; while the first is still running it is 409. An error is replayed too, except one that asks for a retry (5xx, 429, a 409 of a payment or refund already in progress) or an error of an upload: after those the same key runs again. If the service stopped mid-request, the key is freed 60 s later and a retry runs the request again.',
    }),
  );
