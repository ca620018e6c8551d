import { checkoutRejection, CheckoutFacts } from '../../src/modules/billing/orders/checkout-policy';

/** A checkout's rules besides the coupon's (billing/orders/checkout-policy.ts), without a database. */
describe('checkout policy', () => {
  const facts = (overrides: Partial<CheckoutFacts> = {}): CheckoutFacts => ({
    product: { id: 7, type: 'one_time' },
    planRequested: false,
    plan: null,
    affiliateRequested: false,
    affiliateFound: false,
    ...overrides,
  });

  it('accepts a one-time product, a recurring one with its plan, an existing affiliate', () => {
    expect(checkoutRejection(facts())).toBeNull();
    expect(
      checkoutRejection(
        facts({ product: { id: 7, type: 'recurring' }, planRequested: true, plan: { id: 3, productId: 7 } }),
      ),
    ).toBeNull();
    expect(checkoutRejection(facts({ affiliateRequested: true, affiliateFound: true }))).toBeNull();
    // A plan may be named for a one-time product only if it is that product's.
    expect(checkoutRejection(facts({ planRequested: true, plan: { id: 3, productId: 7 } }))).toBeNull();
  });

  it('names each broken rule', () => {
    expect(checkoutRejection(facts({ product: null }))).toBe('product_not_found');
    expect(checkoutRejection(facts({ planRequested: true, plan: null }))).toBe('plan_not_found');
    expect(checkoutRejection(facts({ planRequested: true, plan: { id: 3, productId: 8 } }))).toBe(
      'plan_of_other_product',
    );
    expect(checkoutRejection(facts({ product: { id: 7, type: 'recurring' } }))).toBe('plan_required');
    expect(checkoutRejection(facts({ affiliateRequested: true, affiliateFound: false }))).toBe('affiliate_not_found');
  });

  it('reports the first broken rule: product, plan, affiliate', () => {
    const all = facts({ product: null, planRequested: true, plan: null, affiliateRequested: true });
    expect(checkoutRejection(all)).toBe('product_not_found');
    expect(checkoutRejection({ ...all, product: { id: 7, type: 'recurring' } })).toBe('plan_not_found');
    expect(checkoutRejection({ ...all, product: { id: 7, type: 'recurring' }, plan: { id: 3, productId: 8 } })).toBe(
      'plan_of_other_product',
    );
    expect(checkoutRejection({ ...all, product: { id: 7, type: 'recurring' }, planRequested: false })).toBe(
      'plan_required',
    );
    expect(checkoutRejection({ ...all, product: { id: 7, type: 'recurring' }, plan: { id: 3, productId: 7 } })).toBe(
      'affiliate_not_found',
    );
  });
});
