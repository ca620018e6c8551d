import type { Type } from '@nestjs/common';

/**
 * A DTO's fast accept path: given a request value, returns the very instance the global
 * ValidationPipe would return for it (class-transformer's instance after class-validator's
 * whitelist), or `undefined` whenever the value is not clearly valid. It never rejects: on
 * `undefined` the pipe runs class-transformer and class-validator as always, and they stay the
 * source of truth for what is invalid and for every error message.
 */
export type FastAccept<T> = (value: unknown) => T | undefined;

const registry = new Map<Type<unknown>, FastAccept<unknown>>();

/** Registers the fast accept path of a DTO class (next to the DTO, so the two change together). */
export function registerFastAccept<T>(dto: Type<T>, accept: FastAccept<T>): void {
  registry.set(dto, accept);
}

export function fastAcceptOf(dto: Type<unknown>): FastAccept<unknown> | undefined {
  return registry.get(dto);
}

// Building blocks with class-validator's semantics, restricted to what a JSON body holds.

/** An object as `JSON.parse` builds it; arrays, class instances and null-prototype objects are left to the full path. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

/** `@IsOptional()`: null and undefined skip every other check of the property. */
export function isAbsent(value: unknown): value is null | undefined {
  return value === null || value === undefined;
}

/**
 * `@IsString()` + `@MaxLength(max)` for a primitive string. MaxLength (validator's isLength) counts
 * a surrogate pair or an emoji presentation sequence as one character, so its length is never
 * more than `.length`: a string within `max` UTF-16 units passes it, and a longer one, which it
 * may still accept, is left to the full path.
 */
export function isStringWithin(value: unknown, max: number): value is string {
  return typeof value === 'string' && value.length <= max;
}
