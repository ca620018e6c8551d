import { FieldErrors } from '../errors/app-error';
import { MAX_INT4 } from './path-id';

declare global {
  // ES2024, in Node since 20.0; the project's lib stops at ES2022.
  interface String {
    isWellFormed(): boolean;
    toWellFormed(): string;
  }
}

/** A JSON body nested deeper than this is malformed (400), not a 422 or a stack overflow. */
export const MAX_JSON_DEPTH = 32;

/**
 * Whether a parsed JSON value nests deeper than `max` levels (the body itself is level 1). Stops
 * at the first level past `max`, so its own recursion is bounded; JSON.parse itself does not
 * recurse on the call stack.
 */
export function exceedsDepth(value: unknown, max = MAX_JSON_DEPTH): boolean {
  return deeperThan(value, max);
}

function deeperThan(value: unknown, levelsLeft: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (levelsLeft === 0) return true;
  if (Array.isArray(value)) {
    for (const item of value)
      if (typeof item === 'object' && item !== null && deeperThan(item, levelsLeft - 1)) return true;
    return false;
  }
  for (const key in value) {
    const item = (value as Record<string, unknown>)[key];
    if (typeof item === 'object' && item !== null && deeperThan(item, levelsLeft - 1)) return true;
  }
  return false;
}

/** A string PostgreSQL can store as `text`: no U+0000, no unpaired surrogate (not valid UTF-8). */
export function isStorableText(text: string): boolean {
  return text.indexOf('\u0000') === -1 && text.isWellFormed();
}

export const UNSTORABLE_TEXT = 'must not contain U+0000 or unpaired surrogates.';

/**
 * Below this magnitude a number prints in exponent form ("1e-7"), which class-validator's
 * `maxDecimalPlaces` check cannot read (it throws), and no column holds it: the finest is two decimals.
 */
const SMALLEST_NUMBER = 1e-6;
export const TOO_PRECISE = 'has more decimals than it can hold.';

/** What one pass over a request value found. */
export interface InputInspection {
  /**
   * Fields (dotted paths, the OpenAPI description) holding a string that cannot be stored or a non-zero number
   * too small for any column; null when none.
   */
  errors: FieldErrors | null;
  /** A number beyond ±(2^31−1) somewhere: within that range every implicit bound holds. */
  hasLargeNumber: boolean;
}

/**
 * One pass over a body or query: strings PostgreSQL would refuse (keys too) and whether any number
 * is large. Paths are built only for the fields in error, so a clean body costs a walk and nothing
 * else.
 */
export function inspectInput(value: unknown): InputInspection {
  const result: InputInspection = { errors: null, hasLargeNumber: false };
  walk(value, [], result, 0);
  return result;
}

function walk(value: unknown, path: string[], result: InputInspection, depth: number): void {
  if (typeof value === 'string') {
    if (!isStorableText(value)) addError(result, path, UNSTORABLE_TEXT);
    return;
  }
  if (typeof value === 'number') {
    if (!(value >= -MAX_INT4 - 1 && value <= MAX_INT4)) result.hasLargeNumber = true;
    else if (value !== 0 && value > -SMALLEST_NUMBER && value < SMALLEST_NUMBER) addError(result, path, TOO_PRECISE);
    return;
  }
  if (typeof value !== 'object' || value === null || depth > MAX_JSON_DEPTH) return;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item === 'string' || typeof item === 'number' || (typeof item === 'object' && item !== null)) {
        path.push(String(i));
        walk(item, path, result, depth + 1);
        path.pop();
      }
    }
    return;
  }
  for (const key in value) {
    path.push(key);
    if (!isStorableText(key)) addError(result, path, UNSTORABLE_TEXT);
    walk((value as Record<string, unknown>)[key], path, result, depth + 1);
    path.pop();
  }
}

// eslint-disable-next-line no-control-regex -- U+0000 is exactly what is replaced in a field name
const NUL = /\u0000/g;

function addError(result: InputInspection, path: string[], problem: string): void {
  const field =
    path.map((part) => (isStorableText(part) ? part : part.toWellFormed().replace(NUL, '\uFFFD'))).join('.') || 'body';
  result.errors ??= {};
  result.errors[field] = [`${field} ${problem}`];
}
