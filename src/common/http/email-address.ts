import { fullFormats } from 'ajv-formats/dist/formats';
import { isEmail, ValidateBy, ValidationOptions } from 'class-validator';

const SCHEMA_EMAIL = fullFormats.email as RegExp;

/**
 * An address of the `email` format the OpenAPI description gives (JSON Schema's: an RFC 5321
 * mailbox in ASCII, no quoted local part), checked with the same rule a client's validator uses,
 * so an address accepted here validates wherever it is shown again (the order, the webhook payload).
 * `josé@exämple.com` and `"a b"@example.com` are refused; `a@xn--exmple-cua.com` is taken.
 */
export function isEmailAddress(value: unknown): value is string {
  return typeof value === 'string' && isEmail(value) && SCHEMA_EMAIL.test(value);
}

/** {@link isEmailAddress} as a class-validator rule, named `isEmail` (a rule only a string can meet). */
export const IsEmailAddress = (options?: ValidationOptions): PropertyDecorator =>
  ValidateBy({ name: 'isEmail', validator: { validate: (value) => isEmailAddress(value) } }, options);
