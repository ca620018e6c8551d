import { plainToInstance } from 'class-transformer';
import { validate, ValidationError as ClassValidationError } from 'class-validator';
import { ValidationError } from '../../../common/errors/app-error';
import { inspectInput } from '../../../common/http/input-text';
import type { PageRequest } from '../../../common/pagination/pagination';

/**
 * A dashboard form checked with the API's own DTO (same rules, same messages): the DTO, or the
 * messages by field for the page to show.
 */
export async function validateForm<T extends object>(
  type: new () => T,
  values: Record<string, unknown>,
): Promise<{ dto: T; errors: null } | { dto: null; errors: Record<string, string[]> }> {
  // The same first check as the API's pipe: text PostgreSQL would refuse is a field error, not a 500.
  const unstorable = inspectInput(values).errors;
  if (unstorable) return { dto: null, errors: unstorable };
  const dto = plainToInstance(type, values);
  const failures = await validate(dto, { whitelist: true, forbidUnknownValues: false });
  if (!failures.length) return { dto, errors: null };
  const errors: Record<string, string[]> = {};
  const collect = (list: ClassValidationError[], prefix: string) => {
    for (const failure of list) {
      const field = `${prefix}${failure.property}`;
      if (failure.constraints) errors[field] = Object.values(failure.constraints);
      if (failure.children?.length) collect(failure.children, `${field}.`);
    }
  };
  collect(failures, '');
  return { dto: null, errors };
}

/** Field messages of a service's `ValidationError` (same shape as the DTO's). */
export function fieldErrorsOf(error: unknown): Record<string, string[]> | null {
  if (error instanceof ValidationError) return error.errors as Record<string, string[]>;
  return null;
}

/**
 * A form's text box for a JSON number: empty is absent (or `null` to clear it), a number is a
 * number, anything else stays text so the DTO answers with the field's own message.
 */
export function formNumber(value: unknown, empty: null | undefined = undefined): number | string | null | undefined {
  const text = typeof value === 'string' ? value.trim() : '';
  if (!text) return empty;
  return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
}

/** An optional text field of a form: empty is absent on create, `null` (clear it) on update. */
export function formOptional(value: unknown, empty: null | undefined = undefined): string | null | undefined {
  const text = typeof value === 'string' ? value.trim() : '';
  return text ? text : empty;
}

/**
 * A dashboard list's `?page=` from the address bar: a page number, or the first page for anything
 * else (a page past the last is the list's to say, with a link back).
 */
export function dashboardPage(query: unknown, perPage: number): PageRequest {
  const raw = String((query as { page?: unknown } | undefined)?.page ?? '1');
  const page = /^\d{1,6}$/.test(raw) && Number(raw) >= 1 ? Number(raw) : 1;
  return { page, perPage, offset: (page - 1) * perPage };
}
