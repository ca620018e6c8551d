/**
 * A message to a seller about their store (notifications' README, *Messages to sellers*), as the email
 * channel gets it: facts and links, no rendering. The same `id` on every attempt.
 */
export interface SellerMessage {
  /** `product_review.product-12.<event id>`: the same on every attempt (the Message-ID). */
  id: string;
  kind: 'product_review';
  /** `test`: the test side of the store (README, *Test mode*): the email goes to the outbox only. */
  store: { id: number; name: string; brand: string; test: boolean };
  seller: { name: string; email: string };
  product: { pid: string; name: string };
  decision: 'approved' | 'rejected';
  /** The reviewer's words; always present on a rejection made in the dashboard. */
  reason: string | null;
  /** `{web_url}/products/<pid>`: where the seller fixes the product and submits it again. */
  link: string;
}
