import { Transform } from 'class-transformer';

/** Surrounding white space is never part of a value; non-strings are left for the validators to refuse. */
export const Trim = () =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value));
