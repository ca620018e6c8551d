import { plainToInstance } from 'class-transformer';
import { validate, ValidationError as ClassValidationError } from 'class-validator';
import { inspectInput } from '../../../common/http/input-text';

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
