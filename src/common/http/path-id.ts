import { PipeTransform } from '@nestjs/common';
import { NotFoundError } from '../errors/app-error';

/** PostgreSQL `integer`: no serial id is larger. */
export const MAX_INT4 = 2_147_483_647;

/**
 * A path id that is not a positive int4 cannot name a row: null, so callers answer 404 like for a
 * missing row instead of letting PostgreSQL fail with a 500.
 */
export function parseIntId(raw: string): number | null {
  if (!/^\d{1,10}$/.test(raw)) return null;
  const id = Number(raw);
  return id >= 1 && id <= MAX_INT4 ? id : null;
}

/** `@Param('id', IntIdPipe)`: the id as a number, or 404 `Resource not found.`. */
export const IntIdPipe: PipeTransform<string, number> = {
  transform(value: string): number {
    const id = parseIntId(value);
    if (id === null) throw new NotFoundError();
    return id;
  },
};
