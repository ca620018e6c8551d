import { ValidateBy } from 'class-validator';
import { hasAtMostTwoDecimals } from '../../../common/money';
import { MAX_INT4 } from '../../../common/http/path-id';
import {
  codeProblem,
  DATE_TIME_MESSAGE,
  DISCOUNT_STATUS_INPUTS,
  DISCOUNT_TYPE_INPUTS,
  MAX_DISCOUNT_VALUE,
  normaliseStatus,
  normaliseType,
  parseDateTime,
} from '../discount-input';

/** Returns the one message that describes what is wrong with a field, or null when it is fine. */
type Check = (value: unknown, body: Record<string, unknown>) => string | null;

/**
 * One validator per field that answers with a single, specific message (`value must be at least
 * 0.01.`) instead of a list of every generic constraint the value also fails.
 */
export function Rule(check: Check): PropertyDecorator {
  return ValidateBy({
    name: 'discountRule',
    validator: {
      validate: (value, args) => check(value, (args?.object ?? {}) as Record<string, unknown>) === null,
      defaultMessage: (args) => check(args?.value, (args?.object ?? {}) as Record<string, unknown>) ?? 'is invalid.',
    },
  });
}

export const PERCENT_MAX_MESSAGE = 'value must be at most 100 for a percent discount.';
export const TYPE_MESSAGE = `type must be one of: ${DISCOUNT_TYPE_INPUTS.join(', ')}.`;
export const STATUS_MESSAGE = `status must be one of: ${DISCOUNT_STATUS_INPUTS.join(', ')}.`;

const isAbsent = (value: unknown) => value === undefined || value === null;

export const codeRule =
  (required: boolean): Check =>
  (value) => {
    if (value === undefined) return required ? 'code is required.' : null;
    if (typeof value !== 'string') return value === null && required ? 'code is required.' : 'code must be a string.';
    return codeProblem(value);
  };

export const typeRule =
  (required: boolean): Check =>
  (value) => {
    if (value === undefined) return required ? 'type is required.' : null;
    if (value === null && required) return 'type is required.';
    return typeof value === 'string' && normaliseType(value) ? null : TYPE_MESSAGE;
  };

export const valueRule =
  (required: boolean): Check =>
  (value, body) => {
    if (value === undefined) return required ? 'value is required.' : null;
    if (value === null && required) return 'value is required.';
    if (typeof value !== 'number' || !Number.isFinite(value)) return 'value must be a number.';
    if (value < 0.01) return 'value must be at least 0.01.';
    if (!hasAtMostTwoDecimals(value)) return 'value must have at most two decimals.';
    const type = typeof body.type === 'string' ? normaliseType(body.type) : undefined;
    if (type === 'percent' && value > 100) return PERCENT_MAX_MESSAGE;
    if (value > MAX_DISCOUNT_VALUE) return `value must be at most ${MAX_DISCOUNT_VALUE}.`;
    return null;
  };

export const statusRule: Check = (value) => {
  if (value === undefined) return null;
  return typeof value === 'string' && normaliseStatus(value) ? null : STATUS_MESSAGE;
};

export const productIdsRule: Check = (value) => {
  if (isAbsent(value)) return null;
  const ok =
    Array.isArray(value) &&
    value.every((id) => typeof id === 'number' && Number.isInteger(id) && id >= 1 && id <= MAX_INT4);
  if (!ok) return 'product_ids must be an array of product ids (positive integers).';
  if (value.length > 1000) return 'product_ids may hold at most 1000 products.';
  return null;
};

export const usesLimitRule: Check = (value) => {
  if (isAbsent(value)) return null;
  if (typeof value !== 'number' || !Number.isInteger(value)) return 'uses_limit must be an integer.';
  if (value < 1) return 'uses_limit must be at least 1.';
  if (value > MAX_INT4) return `uses_limit must be at most ${MAX_INT4}.`;
  return null;
};

export const booleanRule =
  (field: string): Check =>
  (value) =>
    value === undefined || typeof value === 'boolean' ? null : `${field} must be a boolean.`;

/** `never_expires: true` together with a date is a contradiction, not something to guess about. */
export const neverExpiresRule: Check = (value, body) => {
  const type = booleanRule('never_expires')(value, body);
  if (type) return type;
  if (value === true && !isAbsent(body.expires_at)) return 'never_expires cannot be true when expires_at is given.';
  return null;
};

export const expiresAtRule =
  (creating: boolean): Check =>
  (value, body) => {
    if (isAbsent(value)) {
      // On creation nothing else can supply the date; on update the stored one may (service).
      return creating && body.never_expires === false ? 'expires_at is required when never_expires is false.' : null;
    }
    return typeof value === 'string' && parseDateTime(value) ? null : DATE_TIME_MESSAGE;
  };
