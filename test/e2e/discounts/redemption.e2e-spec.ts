import { ValidationError } from '../../../src/common/errors/app-error';
import { CouponRedemptionService, CouponRequest } from '../../../src/modules/discounts/coupon-redemption.service';
import { OrdersRepository } from '../../../src/modules/billing/orders/orders.repository';
import { createSeller, TestSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';
import { createDiscount, insertCustomer, insertOrder, insertProduct, usedCount } from './fixtures';

describe('Coupon redemption at order creation', () => {
  let t: TestApp;
  let seller: TestSeller;
  let other: TestSeller;
  let coupons: CouponRedemptionService;
  let product: number;
  let otherProduct: number;
  let n = 0;
  const code = (prefix = 'C') => `${prefix}${++n}`;

  beforeAll(async () => {
    t = await createTestApp();
    seller = await createSeller(t);
    other = await createSeller(t);
    coupons = t.app.get(CouponRedemptionService);
    product = await insertProduct(t, seller.storeId);
    otherProduct = await insertProduct(t, seller.storeId);
  });
  afterAll(() => t.close());

  /** A reservation for a customer by email: billing says whether that email holds the coupon. */
  type Request = Omit<CouponRequest, 'heldByCustomer'> & { customerEmail: string };
  const request = (overrides: Partial<Request> = {}): CouponRequest => {
    const { customerEmail, ...rest }: Request = {
      storeId: seller.storeId,
      code: 'X',
      productId: product,
      amount: 10_000,
      customerEmail: 'buyer@example.com',
      ...overrides,
    };
    const email = customerEmail.trim().toLowerCase();
    return {
      ...rest,
      heldByCustomer: (discountId, manager) =>
        t.app.get(OrdersRepository).customerHoldsCoupon(rest.storeId, email, discountId, manager),
    };
  };

  /** Reserves in a transaction of its own that commits, as order creation would. */
  const reserve = (overrides: Partial<Request>) =>
    t.dataSource.transaction((manager) => coupons.reserve(manager, request(overrides)));
  const release = (discountId: number) => t.dataSource.transaction((manager) => coupons.release(manager, discountId));

  async function rejection(overrides: Partial<Request>): Promise<Record<string, string[]>> {
    try {
      await reserve(overrides);
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      return (error as ValidationError).errors;
    }
    throw new Error('expected the coupon to be rejected');
  }

  describe('applies', () => {
    it('reserves a use and answers the discount and the code as written, matching the code in any case', async () => {
      const discount = await createDiscount(t, seller, { code: 'Hello10', type: 'percent', value: 10, uses_limit: 3 });
      const reservation = await reserve({ code: '  hello10 ' });
      expect(reservation).toEqual({ discountId: discount.id, code: 'Hello10', discountAmount: 1000 });
      expect(await usedCount(t, discount.id)).toBe(1);
      const shown = await t.http.get(`/v1/discounts/${discount.id}`).set(seller.auth).expect(200);
      expect(shown.body.discount).toMatchObject({ used_count: 1, available_uses: 2 });
    });

    it('applies to every product when product_ids is empty, and to a listed product', async () => {
      const all = await createDiscount(t, seller, { code: code(), type: 'fixed', value: 1 });
      await expect(reserve({ code: all.code, productId: otherProduct })).resolves.toMatchObject({ discountId: all.id });
      const listed = await createDiscount(t, seller, { code: code(), type: 'fixed', value: 1, product_ids: [product] });
      await expect(reserve({ code: listed.code, productId: product })).resolves.toMatchObject({
        discountId: listed.id,
      });
    });
  });

  describe('amounts in exact cents', () => {
    it.each<[string, string, number, number, number]>([
      ['fixed below the amount', 'fixed', 10, 10_000, 1_000],
      ['fixed with cents', 'amount', 0.01, 1_000, 1],
      ['fixed larger than the amount is capped at the amount', 'fixed', 150, 10_000, 10_000],
      ['fixed equal to the amount', 'fixed', 100, 10_000, 10_000],
      ['percent of a round amount', 'percent', 10, 10_000, 1_000],
      ['percent rounding half up (999.9 → 1000)', 'percent', 10, 9_999, 1_000],
      ['percent rounding half up at exactly .5 (500.5 → 501)', 'percentage', 50, 1_001, 501],
      ['percent rounding down below .5 (125.125 → 125)', '%', 12.5, 1_001, 125],
      ['percent with two decimals (33.33% of 100.00)', 'percent', 33.33, 10_000, 3_333],
      ['percent of 100 is the whole amount', 'percentual', 100, 12_345, 12_345],
      ['the smallest percent of a small amount rounds to zero', 'percent', 0.01, 1_000, 0],
      ['a large amount stays exact', 'percent', 7.77, 999_999_999, 77_700_000],
    ])('%s', async (_name, type, value, amount, expected) => {
      const discount = await createDiscount(t, seller, { code: code(), type, value });
      const reservation = await reserve({ code: discount.code, amount });
      expect(reservation.discountAmount).toBe(expected);
      expect(Number.isInteger(reservation.discountAmount)).toBe(true);
    });
  });

  describe('rejections (422 on coupon_code)', () => {
    it('unknown code, and another store’s code', async () => {
      expect(await rejection({ code: 'NOPE' })).toEqual({ coupon_code: ['Coupon code is invalid.'] });
      const theirs = await createDiscount(t, other, { code: 'OTHERSTORE', type: 'fixed', value: 1 });
      expect(await rejection({ code: 'OTHERSTORE' })).toEqual({ coupon_code: ['Coupon code is invalid.'] });
      expect(await usedCount(t, theirs.id)).toBe(0);
    });

    it('inactive', async () => {
      const discount = await createDiscount(t, seller, { code: code(), type: 'fixed', value: 1, status: 'disabled' });
      expect(await rejection({ code: discount.code })).toEqual({ coupon_code: ['Coupon is not active.'] });
      expect(await usedCount(t, discount.id)).toBe(0);
    });

    it('expired', async () => {
      const discount = await createDiscount(t, seller, {
        code: code(),
        type: 'fixed',
        value: 1,
        expires_at: new Date(t.clock.now().getTime() + 60_000).toISOString(),
      });
      t.clock.advance(120_000);
      try {
        expect(await rejection({ code: discount.code })).toEqual({ coupon_code: ['Coupon has expired.'] });
      } finally {
        t.clock.advance(-120_000);
      }
      expect(await usedCount(t, discount.id)).toBe(0);
    });

    it('no uses left', async () => {
      const discount = await createDiscount(t, seller, { code: code(), type: 'fixed', value: 1, uses_limit: 2 });
      await reserve({ code: discount.code });
      await reserve({ code: discount.code });
      expect(await rejection({ code: discount.code })).toEqual({ coupon_code: ['Coupon has no uses left.'] });
      expect(await usedCount(t, discount.id)).toBe(2);
    });

    it('product not covered', async () => {
      const discount = await createDiscount(t, seller, {
        code: code(),
        type: 'fixed',
        value: 1,
        product_ids: [product],
      });
      expect(await rejection({ code: discount.code, productId: otherProduct })).toEqual({
        coupon_code: ['Coupon does not apply to this product.'],
      });
      expect(await usedCount(t, discount.id)).toBe(0);
    });

    it('checks in a stable order: inactive before expired before exhausted before product', async () => {
      const discount = await createDiscount(t, seller, {
        code: code(),
        type: 'fixed',
        value: 1,
        uses_limit: 1,
        product_ids: [product],
      });
      await reserve({ code: discount.code });
      expect(await rejection({ code: discount.code, productId: otherProduct })).toEqual({
        coupon_code: ['Coupon has no uses left.'],
      });
      await t.http.patch(`/v1/discounts/${discount.id}`).set(seller.auth).send({ status: 'inactive' }).expect(200);
      expect(await rejection({ code: discount.code, productId: otherProduct })).toEqual({
        coupon_code: ['Coupon is not active.'],
      });
    });
  });

  describe('single use per customer email', () => {
    async function singleUseCoupon() {
      return createDiscount(t, seller, { code: code('ONCE'), type: 'fixed', value: 1, single_use: true });
    }

    async function orderWith(
      discount: { id: number; code: string },
      email: string,
      status: 'pending' | 'approved' | 'cancelled' | 'refunded',
    ) {
      const customerId = await insertCustomer(t, seller.storeId, email);
      return insertOrder(t, {
        storeId: seller.storeId,
        productId: product,
        customerId,
        discountId: discount.id,
        couponCode: discount.code,
        status,
      });
    }

    it.each(['pending', 'approved'] as const)(
      'refuses an email that holds a %s order with the coupon, in any case',
      async (status) => {
        const discount = await singleUseCoupon();
        await orderWith(discount, 'ana@example.com', status);
        expect(await rejection({ code: discount.code, customerEmail: 'Ana@Example.COM' })).toEqual({
          coupon_code: ['Coupon has already been used by this customer.'],
        });
        await expect(reserve({ code: discount.code, customerEmail: 'bea@example.com' })).resolves.toMatchObject({
          discountId: discount.id,
        });
      },
    );

    it('does not count a cancelled order', async () => {
      const discount = await singleUseCoupon();
      await orderWith(discount, 'carla@example.com', 'cancelled');
      await expect(reserve({ code: discount.code, customerEmail: 'carla@example.com' })).resolves.toMatchObject({
        discountId: discount.id,
      });
    });

    it('does not count an order with another coupon', async () => {
      const discount = await singleUseCoupon();
      const another = await singleUseCoupon();
      await orderWith(another, 'dina@example.com', 'approved');
      await expect(reserve({ code: discount.code, customerEmail: 'dina@example.com' })).resolves.toMatchObject({
        discountId: discount.id,
      });
    });

    it('lets the same email use a coupon that is not single use again', async () => {
      const discount = await createDiscount(t, seller, { code: code(), type: 'fixed', value: 1 });
      await orderWith(discount, 'eva@example.com', 'approved');
      await orderWith(discount, 'eva@example.com', 'pending');
      await expect(reserve({ code: discount.code, customerEmail: 'eva@example.com' })).resolves.toMatchObject({
        discountId: discount.id,
      });
    });
  });

  describe('expiry at the boundary (valid strictly before expires_at)', () => {
    it('applies 1 ms before expires_at and is expired exactly at it', async () => {
      const frozen = Date.now();
      // Time stands still, so only t.clock.advance moves the app's clock.
      const spy = jest.spyOn(Date, 'now').mockReturnValue(frozen);
      let advanced = 0;
      const advance = (ms: number) => {
        t.clock.advance(ms);
        advanced += ms;
      };
      try {
        const expiresAt = new Date(t.clock.now().getTime() + 60_000);
        const discount = await createDiscount(t, seller, {
          code: code(),
          type: 'fixed',
          value: 1,
          expires_at: expiresAt.toISOString(),
        });
        advance(59_999);
        expect(t.clock.now().getTime()).toBe(expiresAt.getTime() - 1);
        const reservation = await reserve({ code: discount.code });
        expect(reservation.discountId).toBe(discount.id);
        advance(1);
        expect(t.clock.now().getTime()).toBe(expiresAt.getTime());
        expect(await rejection({ code: discount.code })).toEqual({ coupon_code: ['Coupon has expired.'] });
        advance(1);
        expect(await rejection({ code: discount.code })).toEqual({ coupon_code: ['Coupon has expired.'] });
        expect(await usedCount(t, discount.id)).toBe(1);
      } finally {
        t.clock.advance(-advanced);
        spy.mockRestore();
      }
    });

    it('a coupon that never expires still applies far in the future', async () => {
      const discount = await createDiscount(t, seller, { code: code(), type: 'fixed', value: 1 });
      t.clock.advance(10 * 365 * 86_400_000);
      try {
        await expect(reserve({ code: discount.code })).resolves.toMatchObject({ discountId: discount.id });
      } finally {
        t.clock.advance(-10 * 365 * 86_400_000);
      }
    });
  });

  describe('release', () => {
    it('gives the use back, so an exhausted coupon applies again', async () => {
      const discount = await createDiscount(t, seller, { code: code(), type: 'fixed', value: 1, uses_limit: 1 });
      const reservation = await reserve({ code: discount.code });
      expect(await rejection({ code: discount.code })).toEqual({ coupon_code: ['Coupon has no uses left.'] });
      await release(reservation.discountId);
      expect(await usedCount(t, discount.id)).toBe(0);
      await expect(reserve({ code: discount.code })).resolves.toMatchObject({ discountId: discount.id });
      expect(await usedCount(t, discount.id)).toBe(1);
    });

    it('never takes used_count below zero, and ignores a deleted discount', async () => {
      const discount = await createDiscount(t, seller, { code: code(), type: 'fixed', value: 1 });
      await release(discount.id);
      expect(await usedCount(t, discount.id)).toBe(0);
      await t.http.delete(`/v1/discounts/${discount.id}`).set(seller.auth).expect(200);
      await expect(release(discount.id)).resolves.toBeUndefined();
    });

    it('lets a single-use customer use the coupon again once the order is cancelled', async () => {
      const discount = await createDiscount(t, seller, {
        code: code(),
        type: 'fixed',
        value: 1,
        single_use: true,
        uses_limit: 1,
      });
      const customerId = await insertCustomer(t, seller.storeId, 'fay@example.com');
      const orderId = await t.dataSource.transaction(async (manager) => {
        const reservation = await coupons.reserve(
          manager,
          request({ code: discount.code, customerEmail: 'fay@example.com' }),
        );
        return insertOrder(manager, {
          storeId: seller.storeId,
          productId: product,
          customerId,
          discountId: reservation.discountId,
          couponCode: reservation.code,
        });
      });
      expect(await rejection({ code: discount.code, customerEmail: 'fay@example.com' })).toEqual({
        coupon_code: ['Coupon has no uses left.'],
      });
      // Cancellation: the order change and the release commit together.
      await t.dataSource.transaction(async (manager) => {
        await manager.query(`UPDATE orders SET status = 'cancelled' WHERE id = $1`, [orderId]);
        await coupons.release(manager, discount.id);
      });
      await expect(reserve({ code: discount.code, customerEmail: 'fay@example.com' })).resolves.toMatchObject({
        discountId: discount.id,
      });
    });
  });

  describe('transactions', () => {
    it('rolls the reserved use back with an order that fails', async () => {
      const discount = await createDiscount(t, seller, { code: code(), type: 'fixed', value: 1, uses_limit: 1 });
      await expect(
        t.dataSource.transaction(async (manager) => {
          await coupons.reserve(manager, request({ code: discount.code }));
          throw new Error('order creation failed later');
        }),
      ).rejects.toThrow('order creation failed later');
      expect(await usedCount(t, discount.id)).toBe(0);
      await expect(reserve({ code: discount.code })).resolves.toMatchObject({ discountId: discount.id });
    });

    it('the database refuses a used_count above uses_limit even without the service', async () => {
      const discount = await createDiscount(t, seller, { code: code(), type: 'fixed', value: 1, uses_limit: 1 });
      await t.dataSource.query('UPDATE discounts SET used_count = 1 WHERE id = $1', [discount.id]);
      await expect(
        t.dataSource.query('UPDATE discounts SET used_count = 2 WHERE id = $1', [discount.id]),
      ).rejects.toThrow(/CHK_discounts_used_count/);
      await expect(
        t.dataSource.query('UPDATE discounts SET used_count = -1 WHERE id = $1', [discount.id]),
      ).rejects.toThrow(/CHK_discounts_used_count/);
    });
  });

  it('50 concurrent order creations on a coupon with uses_limit 5: exactly 5 hold it and used_count is 5', async () => {
    const discount = await createDiscount(t, seller, { code: 'LIMITED5', type: 'percent', value: 20, uses_limit: 5 });
    const customerId = await insertCustomer(t, seller.storeId, 'crowd@example.com');

    const attempts = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        t.dataSource.transaction(async (manager) => {
          const reservation = await coupons.reserve(
            manager,
            request({ code: 'limited5', customerEmail: `buyer${i}@example.com` }),
          );
          await insertOrder(manager, {
            storeId: seller.storeId,
            productId: product,
            customerId,
            discountId: reservation.discountId,
            couponCode: reservation.code,
          });
          return reservation;
        }),
      ),
    );

    const succeeded = attempts.filter((a) => a.status === 'fulfilled');
    const failed = attempts.filter((a): a is PromiseRejectedResult => a.status === 'rejected');
    expect(succeeded).toHaveLength(5);
    expect(failed).toHaveLength(45);
    for (const failure of failed) {
      expect(failure.reason).toBeInstanceOf(ValidationError);
      expect((failure.reason as ValidationError).errors).toEqual({ coupon_code: ['Coupon has no uses left.'] });
    }
    expect(await usedCount(t, discount.id)).toBe(5);
    const [{ count }] = await t.dataSource.query('SELECT count(*)::int AS count FROM orders WHERE discount_id = $1', [
      discount.id,
    ]);
    expect(count).toBe(5);
    const shown = await t.http.get('/v1/discounts/LIMITED5').set(seller.auth).expect(200);
    expect(shown.body.discount).toMatchObject({ uses_limit: 5, used_count: 5, available_uses: 0 });
  });

  it('20 concurrent orders by one email on a single-use coupon: exactly one holds it', async () => {
    const discount = await createDiscount(t, seller, { code: 'ONCE_RACE', type: 'fixed', value: 5, single_use: true });
    const customerId = await insertCustomer(t, seller.storeId, 'eager@example.com');

    const attempts = await Promise.allSettled(
      Array.from({ length: 20 }, () =>
        t.dataSource.transaction(async (manager) => {
          const reservation = await coupons.reserve(
            manager,
            request({ code: 'ONCE_RACE', customerEmail: 'eager@example.com' }),
          );
          await insertOrder(manager, {
            storeId: seller.storeId,
            productId: product,
            customerId,
            discountId: reservation.discountId,
          });
        }),
      ),
    );

    expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
    for (const failure of attempts.filter((a): a is PromiseRejectedResult => a.status === 'rejected')) {
      expect((failure.reason as ValidationError).errors).toEqual({
        coupon_code: ['Coupon has already been used by this customer.'],
      });
    }
    expect(await usedCount(t, discount.id)).toBe(1);
  });
});
