import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { ValidationError } from '../../../common/errors/app-error';
import { inspectInput } from '../../../common/http/input-text';
import { flattenValidationErrors } from '../../../common/http/validation.pipe';
import type { PageRequest } from '../../../common/pagination/pagination';

/**
 * A form field whose text cannot become the API's value (an amount written with thousands
 * separators, a date that is no date): its one message, worded with the field's name by
 * {@link validateForm}.
 */
export class FormProblem {
  constructor(readonly message: (field: string) => string) {}
}

export interface FormRules {
  /**
   * Fields the form always shows and needs, also where the API's DTO lets them be left out (an
   * edit form's name): left empty, each is `<field> is required.` and nothing else.
   */
  required?: readonly string[];
}

/**
 * A dashboard form checked with the API's own DTO (same rules, same messages), the one place the
 * dashboard's forms become the API's input: the DTO, or the messages by field for the page to show.
 *
 * As the API answers (the OpenAPI description of its 422): a field left empty is a missing field,
 * one message `<field> is required.` when it is required and none when it is optional; a present
 * value of the wrong type gets its type's message alone, and the other rules of a field are said
 * only of a value of its type. A {@link FormProblem} is that field's only message.
 */
export async function validateForm<T extends object>(
  type: new () => T,
  values: Record<string, unknown>,
  rules: FormRules = {},
): Promise<{ dto: T; errors: null } | { dto: null; errors: Record<string, string[]> }> {
  const input: Record<string, unknown> = {};
  const own: Record<string, string[]> = {};
  for (const [field, value] of Object.entries(values)) {
    if (value instanceof FormProblem) own[field] = [value.message(field)];
    // An empty text box is a field not filled in, whatever its type.
    else if (value !== '' && value !== undefined) input[field] = value;
  }
  for (const field of rules.required ?? [])
    if (input[field] === undefined && !own[field]) own[field] = [`${field} is required.`];
  // The same first check as the API's pipe: text PostgreSQL would refuse is a field error, not a 500.
  const unstorable = inspectInput(input).errors;
  if (unstorable) return { dto: null, errors: { ...unstorable, ...own } };
  const dto = plainToInstance(type, input);
  const failures = await validate(dto, { whitelist: true, forbidUnknownValues: false });
  const errors = { ...flattenValidationErrors(failures), ...own };
  return Object.keys(errors).length ? { dto: null, errors } : { dto, errors: null };
}

/** Field messages of a service's `ValidationError` (same shape as the DTO's). */
export function fieldErrorsOf(error: unknown): Record<string, string[]> | null {
  if (error instanceof ValidationError) return error.errors as Record<string, string[]>;
  return null;
}

/**
 * A form's text box for a JSON integer or number: empty is absent (or `null` to clear it), a number is a
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
 * A form's money box (a price, a discount's value): `150.50`, or `150,50` as sellers writing
 * Portuguese type it, one separator before at most two decimals. A number with a separator
 * grouping thousands (`1.234,50`, `1,000`) is not guessed at: it gets one message saying how to
 * write it. Empty is absent (or `null` to clear it); text that is no number stays text for the
 * DTO's own message.
 */
export function formMoney(
  value: unknown,
  empty: null | undefined = undefined,
): number | string | FormProblem | null | undefined {
  const text = typeof value === 'string' ? value.trim() : '';
  if (!text) return empty;
  const plain = /^(-?\d+)(?:[.,](\d{1,2}))?$/.exec(text);
  if (plain) return Number(`${plain[1]}.${plain[2] ?? '0'}`);
  // Digits with separators that are not one decimal point: thousands, or more than two decimals.
  if (/^-?\d[\d., \u00a0\u202f]*$/.test(text)) return MONEY_FORMAT;
  return text;
}

const MONEY_FORMAT = new FormProblem(
  (field) =>
    `${field} must be a number with at most two decimals and no thousands separator, for example 1234.50 or 1234,50.`,
);

/**
 * A dashboard list's `?page=` from the address bar: a page number, or the first page for anything
 * else, with `asked` set to what was asked so the list can say it showed the first page instead
 * (a page past the last is the list's to say, with a link back).
 */
export function dashboardPage(query: unknown, perPage: number): PageRequest & { asked: string | null } {
  const value = (query as { page?: unknown } | undefined)?.page;
  const raw = typeof value === 'string' ? value.trim() : value === undefined ? '' : String(value);
  // Up to 9 digits: the offset stays an exact integer, far past any store's last page.
  const valid = /^\d{1,9}$/.test(raw) && Number(raw) >= 1;
  const page = valid ? Number(raw) : 1;
  return { page, perPage, offset: (page - 1) * perPage, asked: valid || raw === '' ? null : raw };
}

/** What a list says when `?page=` was no page number (see {@link dashboardPage}). */
export function pageNotice(asked: string | null): string | null {
  return asked === null ? null : `There is no page “${asked.slice(0, 40)}”: page numbers start at 1. This is page 1.`;
}
