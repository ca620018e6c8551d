import { randomBase62 } from '../../common/crypto';
import { MAX_INT4 } from '../../common/http/path-id';

/**
 * Path `{id}` of products and plans is the numeric id or the public identifier (the OpenAPI description).
 * Public identifiers carry a prefix, so they are never all digits; ids beyond int4 cannot exist.
 */
export type CatalogRef = { id: number } | { publicId: string };

export function parseRef(value: string): CatalogRef {
  if (/^\d{1,10}$/.test(value)) {
    const id = Number(value);
    return id <= MAX_INT4 ? { id } : { id: 0 };
  }
  return { publicId: value };
}

/** `product_pid`: ~95 random bits, so a checkout link cannot be built from a guessed id. */
export function newProductPid(): string {
  return `prod_${randomBase62(16)}`;
}

export function newPlanId(): string {
  return `plan_${randomBase62(16)}`;
}
