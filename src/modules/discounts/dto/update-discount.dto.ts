import { ApiPropertyOptional } from '@nestjs/swagger';
import { ApiNullable, ApiTimestamp } from '../../../common/http/api-docs';
import { Trim } from '../../../common/http/transforms';
import { DISCOUNT_STATUS_INPUTS, DISCOUNT_TYPE_INPUTS, MAX_CODE_LENGTH } from '../discount-input';
import {
  CODE_DESCRIPTION,
  EXPIRY_DESCRIPTION,
  PRODUCT_IDS_DESCRIPTION,
  SINGLE_USE_DESCRIPTION,
  STATUS_DESCRIPTION,
  TYPE_DESCRIPTION,
  USES_LIMIT_DESCRIPTION,
  VALUE_DESCRIPTION,
} from './create-discount.dto';
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

/** Every field optional; only the fields sent change. The same rules as creation apply. */
export class UpdateDiscountDto {
  @ApiPropertyOptional({ example: 'SAVE15', maxLength: MAX_CODE_LENGTH, description: CODE_DESCRIPTION })
  @Trim()
  @Rule(codeRule(false))
  code?: string;

  @ApiPropertyOptional({ enum: DISCOUNT_TYPE_INPUTS, example: 'fixed', description: TYPE_DESCRIPTION })
  @Rule(typeRule(false))
  type?: string;

  @ApiPropertyOptional({ example: 15, minimum: 0.01, multipleOf: 0.01, description: VALUE_DESCRIPTION })
  @Rule(valueRule(false))
  value?: number;

  @ApiPropertyOptional({ enum: DISCOUNT_STATUS_INPUTS, example: 'disabled', description: STATUS_DESCRIPTION })
  @Rule(statusRule)
  status?: string;

  @ApiNullable({
    type: 'integer',
    isArray: true,
    example: [12],
    description: `${PRODUCT_IDS_DESCRIPTION} null clears the list.`,
    required: false,
  })
  @Rule(productIdsRule)
  product_ids?: number[] | null;

  @ApiNullable({
    type: 'integer',
    example: 50,
    minimum: 1,
    description: `${USES_LIMIT_DESCRIPTION} Cannot go below the current \`used_count\`.`,
    required: false,
  })
  @Rule(usesLimitRule)
  uses_limit?: number | null;

  @ApiPropertyOptional({ example: true, description: SINGLE_USE_DESCRIPTION })
  @Rule(booleanRule('single_use'))
  single_use?: boolean;

  @ApiTimestamp({
    example: '2027-01-31T23:59:59Z',
    description: `ISO 8601 date-time; without an offset it is read as UTC. null removes the expiry. ${EXPIRY_DESCRIPTION}`,
    nullable: true,
    required: false,
  })
  @Rule(expiresAtRule(false))
  expires_at?: string | null;

  @ApiPropertyOptional({ example: true, description: EXPIRY_DESCRIPTION })
  @Rule(neverExpiresRule)
  never_expires?: boolean;
}
