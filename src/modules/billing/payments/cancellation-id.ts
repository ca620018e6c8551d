import { randomBase62 } from '../../../common/crypto';

/**
 * The transaction id of a cancellation that no gateway names (the customer's cancel button, or a
 * renewal order cancelled with its subscription): `cxl_` and 20 base62 characters. Every
 * cancellation has one, so `order_cancelled` carries a `transaction_id` and a complete `portal_url`.
 */
export function newCancellationId(): string {
  return `cxl_${randomBase62(20)}`;
}
