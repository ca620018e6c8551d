import { ArgumentMetadata, Type, ValidationPipe } from '@nestjs/common';
import { DECORATORS } from '@nestjs/swagger';
import { getMetadataStorage, IS_OPTIONAL, Max, Min } from 'class-validator';
import type { ValidationError as ClassValidatorError } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { FieldErrors, ValidationError } from '../errors/app-error';
import { fastAcceptOf } from './fast-accept';
import { InputInspection, inspectInput } from './input-text';
import { MAX_INT4 } from './path-id';

/** The widest number column: money is `numeric(12,2)` (README, Conventions). */
export const MAX_NUMBER = 9_999_999_999.99;

/**
 * Flattens class-validator's tree into `{ "customer.email": ["…"] }` (the OpenAPI description). A
 * required field that is missing or `null` gets one message, `<field> is required.` (or the DTO's
 * own word for it); a value of the wrong type (an optional field's `null` where it takes none
 * included) gets only what type it must be; the other rules about a value are reported only when
 * it has the field's type.
 */
export function flattenValidationErrors(errors: ClassValidatorError[], prefix = ''): FieldErrors {
  const out: FieldErrors = {};
  for (const error of errors) {
    const path = prefix ? `${prefix}.${error.property}` : error.property;
    if (error.constraints) {
      out[path] = isMissing(error)
        ? requiredMessages(path, error.constraints)
        : valueMessages(path, error.constraints, error.value);
    }
    if (error.children?.length) Object.assign(out, flattenValidationErrors(error.children, path));
  }
  return out;
}

function isMissing(error: ClassValidatorError): boolean {
  if (error.value === undefined) return true;
  if (error.value !== null) return false;
  const constraints = error.constraints ?? {};
  // The DTO's own `isDefined` says the field is required, whatever else it declares.
  if ('isDefined' in constraints) return true;
  // A null where a required field's type was expected; a DTO's own rule that judged the null
  // itself (the discounts' one message per field) has the last word.
  return !isOptional(error) && NULL_IS_MISSING_FOR.some((name) => name in constraints);
}

const optionalProperties = new Map<object, Set<string>>();

/** Declared optional (`@IsOptional`, `@ValidateIf`) by its DTO: a `null` there is a wrong value, not a missing one. */
function isOptional(error: ClassValidatorError): boolean {
  const dto = (error.target as object | undefined)?.constructor as (new () => object) | undefined;
  if (!dto) return false;
  let optional = optionalProperties.get(dto);
  if (!optional) {
    optional = new Set(
      getMetadataStorage()
        .getTargetValidationMetadatas(dto, '', true, false)
        .filter((metadata) => metadata.type === 'conditionalValidation')
        .map((metadata) => metadata.propertyName),
    );
    optionalProperties.set(dto, optional);
  }
  return optional.has(error.property);
}

/** The constraints that say what type a value must be; when one fails, the others say nothing useful. */
const TYPE_CONSTRAINTS = ['isNumber', 'isInt', 'isString', 'isBoolean', 'isArray', 'isObject'];

/**
 * Rules that only a string can meet: a field with one of them (and no type rule of its own) takes
 * strings, so any other value is told that alone.
 */
const STRING_ONLY_CONSTRAINTS = [
  'isUrl',
  'isEmail',
  'maxLength',
  'minLength',
  'matches',
  'isUuid',
  'isIso8601',
  'isDateString',
  'isHexColor',
  'isLocale',
];

/** The constraints a `null` fails only because nothing was given. */
const NULL_IS_MISSING_FOR = [...TYPE_CONSTRAINTS, ...STRING_ONLY_CONSTRAINTS, 'nestedValidation', 'isNotEmpty'];

/**
 * The messages of a present value: its type's when that is wrong, else every rule it breaks.
 * `nestedValidation` (class-validator's own words for a non-object under `@ValidateNested`) is
 * said by the field's `isObject` or `isArray` instead, or, without them, as `<field> must be an object.`
 */
function valueMessages(path: string, constraints: Record<string, string>, value: unknown): string[] {
  const typeMessages = TYPE_CONSTRAINTS.filter((name) => name in constraints).map((name) => constraints[name]);
  if (typeMessages.length) return typeMessages;
  if (typeof value !== 'string' && STRING_ONLY_CONSTRAINTS.some((name) => name in constraints))
    return [`${path} must be a string.`];
  const messages = Object.entries(constraints)
    .filter(([name]) => name !== 'nestedValidation')
    .map(([, message]) => message);
  return messages.length ? messages : [`${path} must be an object.`];
}

/** The DTO's own "required" wording when it has one (`product_id or product_pid is required.`). */
function requiredMessages(path: string, constraints: Record<string, string>): string[] {
  if (constraints.isDefined) return [constraints.isDefined];
  const own = Object.values(constraints).filter((message) => / is required\b/.test(message));
  return own.length ? own : [`${path} is required.`];
}

/**
 * Nest's ValidationPipe, and the one place body and query values enter (the errors of the OpenAPI description):
 *
 * - Every body (JSON, form, multipart fields) and query is first walked for strings PostgreSQL
 *   cannot store (U+0000, unpaired surrogates): 422 on those fields, whatever the DTO, and whether
 *   or not the handler has one.
 * - A DTO that registered a fast accept path (`registerFastAccept`) has a clearly valid body turned
 *   into its instance without class-transformer and class-validator, whose metadata-driven walk
 *   cost ~14 % of the CPU of POST /v1/orders. The fast path only sees bodies the walk found clean
 *   and whose numbers are all within ±(2^31−1), inside every implicit bound below, so it cannot
 *   accept what the full path refuses. Anything else takes the full path, whose errors are
 *   class-validator's, word for word. The fast accept functions build what this pipe's options
 *   produce (whitelist, transform).
 */
class InputValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    let inspection: InputInspection | undefined;
    if (metadata.type === 'body' || metadata.type === 'query') {
      // One named field (`@Query('page')`) is inspected under its own name, not as a whole body.
      inspection = metadata.data ? inspectInput({ [metadata.data]: value }) : inspectInput(value);
      if (inspection.errors) throw new ValidationError(inspection.errors);
    }
    const accepted =
      metadata.metatype && this.toValidate(metadata) ? fastAccept(value, metadata.metatype, inspection) : undefined;
    return accepted !== undefined ? accepted : super.transform(value, metadata);
  }
}

/**
 * The pipe's fast path for a value of `dto`: the instance, or undefined when the full path must
 * decide (no fast accept registered, a string it must refuse, a number past ±(2^31−1)).
 */
export function fastAccept(
  value: unknown,
  dto: Type<unknown> | AbstractClass,
  inspection: InputInspection = inspectInput(value),
): unknown {
  if (inspection.errors || inspection.hasLargeNumber) return undefined;
  return fastAcceptOf(dto as Type<unknown>)?.(value);
}

/** Global pipe: unknown properties dropped, payloads transformed to DTO classes, 422 on failure. */
export function createValidationPipe(): ValidationPipe {
  addImplicitBounds();
  refuseNullWhereNotNullable();
  return new InputValidationPipe({
    whitelist: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    // The value and the DTO tell a missing field from a wrong one; neither reaches the answer.
    validationError: { target: true, value: true },
    exceptionFactory: (errors) => new ValidationError(flattenValidationErrors(errors)),
  });
}

const bounded = new Set<ValidationMetadata>();

/**
 * "A number outside what its field can hold" is a 422 (the errors of the OpenAPI description), for every DTO at once: an
 * `@IsInt()` property without its own `@Max`/`@Min` holds an int4 (ids, counts, pages: the
 * columns and LIMIT/OFFSET arithmetic are int4 or bigint), an `@IsNumber()` one the widest number
 * column, numeric(12,2). Added to class-validator's metadata once, at start-up, after every DTO
 * class is loaded; a DTO's own bound wins.
 */
/** A DTO class as class-validator's metadata keys it. */
type AbstractClass = abstract new (...args: never[]) => unknown;

function addImplicitBounds(): void {
  const storage = getMetadataStorage() as unknown as { validationMetadatas: Map<AbstractClass, ValidationMetadata[]> };
  for (const [target, metadatas] of storage.validationMetadatas) {
    const byProperty = new Map<string, ValidationMetadata[]>();
    for (const metadata of metadatas)
      byProperty.set(metadata.propertyName, [...(byProperty.get(metadata.propertyName) ?? []), metadata]);
    for (const [property, list] of byProperty) {
      const numeric = list.find((m) => (m.name === 'isInt' || m.name === 'isNumber') && !bounded.has(m));
      if (!numeric) continue;
      bounded.add(numeric);
      const limit = numeric.name === 'isInt' ? MAX_INT4 : MAX_NUMBER;
      const options = { each: numeric.each, groups: numeric.groups, always: numeric.always };
      const prototype = (target as { prototype: object }).prototype;
      if (!list.some((m) => m.name === 'max'))
        Max(limit, { ...options, message: `${property} must be at most ${limit}.` })(prototype, property);
      if (!list.some((m) => m.name === 'min'))
        Min(-limit, { ...options, message: `${property} must be at least ${-limit}.` })(prototype, property);
    }
  }
}

/**
 * "A value of the wrong type is a 422" (the errors of the OpenAPI description), `null` included: an
 * `@IsOptional()` field skips its rules for `null` as for absence, so a `null` the description does
 * not allow reached the service (a PATCH writing it into a NOT NULL column: a 500). Once, at
 * start-up, every `@IsOptional()` of a property the description does not document as nullable
 * (`ApiNullable`) skips absence only; a `null` there then meets the field's type rule. Nullable
 * properties keep taking `null`. So what takes `null` and what the description says are one.
 */
function refuseNullWhereNotNullable(): void {
  const storage = getMetadataStorage() as unknown as { validationMetadatas: Map<AbstractClass, ValidationMetadata[]> };
  for (const [target, metadatas] of storage.validationMetadatas) {
    for (const metadata of metadatas) {
      if (metadata.name !== IS_OPTIONAL || rewritten.has(metadata)) continue;
      rewritten.add(metadata);
      const property = metadata.propertyName;
      if (isDocumentedNullable(target, property)) continue;
      metadata.constraints = [(object: Record<string, unknown>) => object[property] !== undefined];
    }
  }
}

const rewritten = new Set<ValidationMetadata>();

function isDocumentedNullable(target: AbstractClass, property: string): boolean {
  const documented = Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES, target.prototype as object, property) as
    { nullable?: boolean; oneOf?: Array<{ type?: unknown }>; type?: unknown } | undefined;
  if (!documented) return false;
  return (
    documented.nullable === true ||
    (Array.isArray(documented.type) && documented.type.includes('null')) ||
    (documented.oneOf ?? []).some((alternative) => alternative?.type === 'null')
  );
}
