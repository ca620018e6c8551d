import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { FieldErrors, NotFoundError, ValidationError } from '../../common/errors/app-error';
import { toCents } from '../../common/money';
import { PageRequest } from '../../common/pagination/pagination';
import { Clock, CLOCK } from '../../common/time';
import { ProductsService } from '../catalog';
import { Discount, DiscountStatus } from './discount.entity';
import { codeKey, normaliseStatus, normaliseType, parseDateTime } from './discount-input';
import { DiscountRef, DiscountsRepository } from './discounts.repository';
import { CreateDiscountDto } from './dto/create-discount.dto';
import { PERCENT_MAX_MESSAGE } from './dto/discount-rules';
import { UpdateDiscountDto } from './dto/update-discount.dto';

/** 100% in hundredths. */
const MAX_PERCENT = 10_000;

/** The seller's management of coupon codes (the OpenAPI description; README, *Choices where the contract is silent*). */
@Injectable()
export class DiscountsService {
  constructor(
    private readonly discounts: DiscountsRepository,
    private readonly products: ProductsService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  create(storeId: number, input: CreateDiscountDto): Promise<Discount> {
    return this.discounts.transaction(async (manager) => {
      const errors: FieldErrors = {};
      const expiresAt = this.expiry(input.expires_at, errors);
      const held = await this.holdProducts(storeId, input.product_ids, manager);
      const productIds = storeProducts(input.product_ids, held, errors);
      if (Object.keys(errors).length) throw new ValidationError(errors);
      const discount = this.discounts.create({
        storeId,
        code: input.code,
        codeKey: codeKey(input.code),
        type: normaliseType(input.type)!,
        value: toCents(input.value),
        status: input.status === undefined ? 'active' : normaliseStatus(input.status)!,
        productIds,
        usesLimit: input.uses_limit ?? null,
        usedCount: 0,
        singleUse: input.single_use ?? false,
        neverExpires: expiresAt === null,
        expiresAt,
      });
      return this.discounts.save(discount, manager);
    });
  }

  list(storeId: number, page: PageRequest, status?: DiscountStatus): Promise<[Discount[], number]> {
    return this.discounts.listForStore(storeId, page, status);
  }

  async get(storeId: number, ref: DiscountRef): Promise<Discount> {
    const discount = await this.discounts.findForStore(storeId, ref);
    if (!discount) throw new NotFoundError();
    return discount;
  }

  /**
   * Changes the fields sent. The row is locked meanwhile, so a redemption cannot take a use between
   * the check of `uses_limit` against `used_count` and the save.
   */
  update(storeId: number, ref: DiscountRef, input: UpdateDiscountDto): Promise<Discount> {
    return this.discounts.transaction(async (manager) => {
      // The products before the discount's row: a deletion holds its product, then updates this row.
      const held = await this.holdProducts(storeId, input.product_ids, manager);
      const discount = await this.discounts.findForStore(storeId, ref, { manager, lock: true });
      if (!discount) throw new NotFoundError();
      const errors: FieldErrors = {};

      if (input.code !== undefined) {
        discount.code = input.code;
        discount.codeKey = codeKey(input.code);
      }
      if (input.type !== undefined) discount.type = normaliseType(input.type)!;
      if (input.value !== undefined) discount.value = toCents(input.value);
      if (discount.type === 'percent' && discount.value > MAX_PERCENT) {
        if (input.value !== undefined) errors.value = [PERCENT_MAX_MESSAGE];
        else errors.type = ['type percent needs a value of at most 100; send a new value with it.'];
      }
      if (input.status !== undefined) discount.status = normaliseStatus(input.status)!;
      if (input.product_ids !== undefined) discount.productIds = storeProducts(input.product_ids, held, errors);
      if (input.uses_limit !== undefined) {
        if (input.uses_limit !== null && input.uses_limit < discount.usedCount) {
          errors.uses_limit = [`uses_limit cannot be lower than used_count (${discount.usedCount}).`];
        }
        discount.usesLimit = input.uses_limit;
      }
      if (input.single_use !== undefined) discount.singleUse = input.single_use;

      const expiresAt = this.updatedExpiry(discount, input, errors);
      discount.expiresAt = expiresAt;
      discount.neverExpires = expiresAt === null;

      if (Object.keys(errors).length) throw new ValidationError(errors);
      return this.discounts.save(discount, manager);
    });
  }

  delete(storeId: number, ref: DiscountRef): Promise<{ id: number; code: string }> {
    return this.discounts.transaction(async (manager) => {
      // Locked, so an order being created with the coupon finishes before the row goes.
      const discount = await this.discounts.findForStore(storeId, ref, { manager, lock: true });
      if (!discount) throw new NotFoundError();
      await this.discounts.remove(discount.id, manager);
      return { id: discount.id, code: discount.code };
    });
  }

  /** A new expiry date: parsed, and strictly in the future (an instant already past is expired). */
  private expiry(input: string | null | undefined, errors: FieldErrors): Date | null {
    if (input === undefined || input === null) return null;
    const date = parseDateTime(input)!;
    if (date.getTime() <= this.clock.now().getTime()) errors.expires_at = ['expires_at must be in the future.'];
    return date;
  }

  /** See EXPIRY_DESCRIPTION: `expires_at` and `never_expires` always agree. */
  private updatedExpiry(discount: Discount, input: UpdateDiscountDto, errors: FieldErrors): Date | null {
    const current = discount.neverExpires ? null : discount.expiresAt;
    if (input.expires_at !== undefined) {
      if (input.expires_at === null && input.never_expires === false) {
        errors.expires_at = ['expires_at is required when never_expires is false.'];
      }
      return this.expiry(input.expires_at, errors);
    }
    if (input.never_expires === true) return null;
    if (input.never_expires === false && current === null) {
      errors.expires_at = ['expires_at is required when never_expires is false.'];
    }
    return current;
  }

  /**
   * The store's products among those a discount will name, held until the transaction commits
   * (catalog's `holdManyForStore`): a product deleted meanwhile either waits for this discount, and
   * then leaves it as every deletion does, or is gone before the check (README, *A deleted product*).
   */
  private holdProducts(storeId: number, ids: number[] | null | undefined, manager: EntityManager) {
    return this.products.holdManyForStore(storeId, ids ?? [], manager);
  }
}

/** The requested products, each of which must be the store's (another store's looks missing). */
function storeProducts(input: number[] | null | undefined, found: Map<number, unknown>, errors: FieldErrors): number[] {
  const ids = [...new Set(input ?? [])];
  const unknown = ids.filter((id) => !found.has(id));
  if (unknown.length)
    errors.product_ids = [`product_ids contains ids that are not products of this store: ${unknown.join(', ')}.`];
  return ids;
}
