import type { Plan, Product } from '../../catalog';

/**
 * The rules of a new checkout besides the coupon's (OpenAPI: `POST /v1/orders`; README, *Choices
 * where the contract is silent*), as a plain function over the rows they judge: the product by
 * `product_pid`, its plan by `plan_id` when one is given, the affiliate when one is given. The
 * coupon's rules are discounts' (`couponRejection`); a plugin's come after (`CheckoutRules`).
 */
export type CheckoutRejection =
  'product_not_found' | 'plan_not_found' | 'plan_of_other_product' | 'plan_required' | 'affiliate_not_found';

export interface CheckoutFacts {
  /** The store's product with the requested pid. */
  product: Pick<Product, 'id' | 'type'> | null;
  /** Whether the request named a plan, and the store's plan with that `plan_id`. */
  planRequested: boolean;
  plan: Pick<Plan, 'id' | 'productId'> | null;
  /** Whether the request named an affiliate, and whether the store has it. */
  affiliateRequested: boolean;
  affiliateFound: boolean;
}

/** The first rule the checkout breaks, in this order: product, plan, affiliate; null when none. */
export function checkoutRejection(facts: CheckoutFacts): CheckoutRejection | null {
  const { product, plan } = facts;
  if (!product) return 'product_not_found';
  if (facts.planRequested) {
    if (!plan) return 'plan_not_found';
    if (plan.productId !== product.id) return 'plan_of_other_product';
  } else if (product.type === 'recurring') {
    // plan_id is required for recurring products.
    return 'plan_required';
  }
  if (facts.affiliateRequested && !facts.affiliateFound) return 'affiliate_not_found';
  return null;
}
