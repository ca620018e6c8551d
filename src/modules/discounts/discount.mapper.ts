import { centsToNumber } from '../../common/money';
import { formatTimestamp } from '../../common/time';
import type { Discount } from './discount.entity';
import type { DiscountDto } from './dto/discount-response.dto';

export function toDiscountDto(discount: Discount): DiscountDto {
  const expiresAt = discount.neverExpires ? null : discount.expiresAt;
  return {
    id: discount.id,
    code: discount.code,
    type: discount.type,
    // Percent is stored in hundredths like cents (12.5% → 1250), so one conversion serves both.
    value: centsToNumber(discount.value),
    status: discount.status,
    product_ids: [...discount.productIds].sort((a, b) => a - b),
    uses_limit: discount.usesLimit,
    used_count: discount.usedCount,
    available_uses: discount.usesLimit === null ? null : Math.max(0, discount.usesLimit - discount.usedCount),
    single_use: discount.singleUse,
    never_expires: expiresAt === null,
    expires_at: formatTimestamp(expiresAt),
    created_at: formatTimestamp(discount.createdAt),
    updated_at: formatTimestamp(discount.updatedAt),
  };
}
