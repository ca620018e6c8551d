/**
 * The ISO 4217 currency codes a store may be in: those the runtime's ICU data lists
 * (`Intl.supportedValuesOf('currency')`, current codes only), so `ZZZ` or `ABC` is no currency.
 */
const CODES: ReadonlySet<string> = new Set(Intl.supportedValuesOf('currency'));

/** Whether `code` (upper case, as stores keep it) is an ISO 4217 currency code. */
export function isCurrencyCode(code: string): boolean {
  return CODES.has(code);
}
