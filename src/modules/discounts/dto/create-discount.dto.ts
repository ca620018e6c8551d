import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ApiNullable, ApiTimestamp } from '../../../common/http/api-docs';
import { Trim } from '../../../common/http/transforms';
import { DISCOUNT_STATUS_INPUTS, DISCOUNT_TYPE_INPUTS, MAX_CODE_LENGTH } from '../discount-input';
import {
  booleanRule,
  codeRule,
  expiresAtRule,
  neverExpiresRule,
  productIdsRule,
  Rule,
  statusRule,
  typeRule,
  usesLimitRule,
  valueRule,
} from './discount-rules';

export const CODE_DESCRIPTION =
  'Unique per store, ignoring case (`save10` and `SAVE10` are the same code). Letters, digits, `-` and `_`; ' +
  'at least one letter, because `GET /v1/discounts/{id}` also takes the code in place of the numeric id.';
export const TYPE_DESCRIPTION =
  'Accepted (any case): `fixed`, `amount` (shown as `fixed`); `percent`, `percentage`, `percentual`, `%` (shown as `percent`).';
export const VALUE_DESCRIPTION =
  'A fixed amount in the store currency, or a percent of the order amount (at most 100). At least 0.01, at most two decimals.';
export const STATUS_DESCRIPTION =
  'Accepted (any case): `active`, `enabled`, `published` (shown as `active`); `inactive`, `disabled`, `unpublished` (shown as `inactive`).';
export const PRODUCT_IDS_DESCRIPTION = 'Products of the store the coupon applies to; empty or omitted = every product.';
export const USES_LIMIT_DESCRIPTION =
  'How many orders may hold the coupon at once or ever paid with it; null = unlimited.';
export const SINGLE_USE_DESCRIPTION =
  'When true, a customer email may hold the coupon on only one pending or approved order.';
export const EXPIRY_DESCRIPTION =
  'Expiry, like Stripe and Lemon Squeezy: the coupon either has an `expires_at` or never expires. ' +
  '`expires_at` set → `never_expires` becomes false; `expires_at` null or omitted → the coupon never expires. ' +
  '`never_expires: true` clears a stored `expires_at` (on update); sending it together with an `expires_at` is 422. ' +
  '`never_expires: false` needs an `expires_at` (in the request, or already stored on update). ' +
  'The coupon is valid strictly before `expires_at`, which must be in the future.';

export class CreateDiscountDto {
  @ApiProperty({ example: 'SAVE10', maxLength: MAX_CODE_LENGTH, description: CODE_DESCRIPTION })
  @Trim()
  @Rule(codeRule(true))
  code: string;

  @ApiProperty({ enum: DISCOUNT_TYPE_INPUTS, example: 'percent', description: TYPE_DESCRIPTION })
  @Rule(typeRule(true))
  type: string;

  @ApiProperty({ example: 10, minimum: 0.01, multipleOf: 0.01, description: VALUE_DESCRIPTION })
  @Rule(valueRule(true))
  value: number;

  @ApiPropertyOptional({
    enum: DISCOUNT_STATUS_INPUTS,
    example: 'active',
    description: `${STATUS_DESCRIPTION} Default \`active\`.`,
  })
  @Rule(statusRule)
  status?: string;

  @ApiNullable({
    type: 'integer',
    isArray: true,
    example: [12, 15],
    description: PRODUCT_IDS_DESCRIPTION,
    required: false,
  })
  @Rule(productIdsRule)
  product_ids?: number[] | null;

  @ApiNullable({ type: 'integer', example: 100, minimum: 1, description: USES_LIMIT_DESCRIPTION, required: false })
  @Rule(usesLimitRule)
  uses_limit?: number | null;

  @ApiPropertyOptional({ example: false, description: `${SINGLE_USE_DESCRIPTION} Default \`false\`.` })
  @Rule(booleanRule('single_use'))
  single_use?: boolean;

  @ApiTimestamp({
    example: '2026-12-31T23:59:59Z',
    description: `ISO 8601 date-time; without an offset it is read as UTC. ${EXPIRY_DESCRIPTION}`,
    nullable: true,
    required: false,
  })
  @Rule(expiresAtRule(true))
  expires_at?: string | null;

  @ApiPropertyOptional({ example: false, description: EXPIRY_DESCRIPTION })
  @Rule(neverExpiresRule)
  never_expires?: boolean;
}
