import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsMoney } from '../../../../common/http/money-input';
import { ApiTimestamp } from '../../../../common/http/api-docs';
import { IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import { MAX_INT4 } from '../../../../common/http/path-id';
import { Trim } from '../../../../common/http/transforms';
import { PageEnvelopeDto } from '../../../../common/pagination/pagination';
import { MAX_PRICE } from '../../products/dto/product.dto';
import type { PlanInterval } from '../plan.entity';

const INTERVALS: PlanInterval[] = ['day', 'week', 'month', 'year'];

const PlanName = () =>
  applyDecorators(
    Trim(),
    IsString({ message: 'name must be a string.' }),
    IsNotEmpty({ message: 'name is required.' }),
    MaxLength(255, { message: 'name must be at most 255 characters.' }),
  );
const PlanPrice = () =>
  applyDecorators(
    IsMoney('price'),
    Min(0.01, { message: 'price must be at least 0.01.' }),
    Max(MAX_PRICE, { message: `price must be at most ${MAX_PRICE}.` }),
  );
const PlanIntervalField = () => IsIn(INTERVALS, { message: 'interval must be one of day, week, month, year.' });
const PlanIntervalCount = () =>
  applyDecorators(
    IsInt({ message: 'interval_count must be an integer.' }),
    Min(1, { message: 'interval_count must be at least 1.' }),
    Max(365, { message: 'interval_count must be at most 365.' }),
  );

export class CreatePlanDto {
  @ApiPropertyOptional({
    type: 'integer',
    example: 12,
    description: 'The recurring product: `product_id` or `product_pid`.',
  })
  @IsOptional()
  @IsInt({ message: 'product_id must be an integer.' })
  @Min(1, { message: 'product_id must be at least 1.' })
  @Max(MAX_INT4, { message: 'product_id is too large.' })
  product_id?: number;

  @ApiPropertyOptional({ example: 'prod_4fQ9xZ2LmN8pR1sT' })
  @IsOptional()
  @IsString({ message: 'product_pid must be a string.' })
  @IsNotEmpty({ message: 'product_pid must not be empty.' })
  @MaxLength(64, { message: 'product_pid must be at most 64 characters.' })
  product_pid?: string;

  @ApiProperty({ example: 'Mensal', maxLength: 255 })
  @PlanName()
  name: string;

  @ApiProperty({ example: 500 })
  @PlanPrice()
  price: number;

  @ApiProperty({ enum: INTERVALS, example: 'month' })
  @PlanIntervalField()
  interval: PlanInterval;

  @ApiPropertyOptional({ type: 'integer', example: 1, minimum: 1, maximum: 365, description: 'Default `1`.' })
  @IsOptional()
  @PlanIntervalCount()
  interval_count?: number;
}

/** A plan stays with its product; everything else can change. `null` is refused (no field is optional). */
export class UpdatePlanDto {
  @ApiPropertyOptional({ example: 'Mensal (promo)', maxLength: 255 })
  @ValidateIf((_, value) => value !== undefined)
  @PlanName()
  name?: string;

  @ApiPropertyOptional({ example: 450 })
  @ValidateIf((_, value) => value !== undefined)
  @PlanPrice()
  price?: number;

  @ApiPropertyOptional({ enum: INTERVALS, example: 'year' })
  @ValidateIf((_, value) => value !== undefined)
  @PlanIntervalField()
  interval?: PlanInterval;

  @ApiPropertyOptional({ type: 'integer', example: 1, minimum: 1, maximum: 365 })
  @ValidateIf((_, value) => value !== undefined)
  @PlanIntervalCount()
  interval_count?: number;
}

export class PlanDto {
  @ApiProperty({ type: 'integer', example: 3 }) id: number;
  @ApiProperty({ example: 'plan_7Hk2mQ9xW3nB5vLc' }) plan_id: string;
  @ApiProperty({ example: 'Mensal' }) name: string;
  @ApiProperty({ example: 500 }) price: number;
  @ApiProperty({ example: 'MZN' }) currency: string;
  @ApiProperty({ enum: INTERVALS, example: 'month' }) interval: PlanInterval;
  @ApiProperty({ type: 'integer', example: 1 }) interval_count: number;
  @ApiProperty({ example: 'prod_4fQ9xZ2LmN8pR1sT' }) product_pid: string;
  @ApiTimestamp({ example: '2025-01-31T12:00:00.000000Z' }) created_at: string;
  @ApiTimestamp({ example: '2025-01-31T12:00:00.000000Z' }) updated_at: string;
}

export class PlanResponseDto {
  @ApiProperty({ example: 'success' }) status: 'success';
  @ApiProperty({ type: PlanDto }) plan: PlanDto;
}

export class PlanCreatedResponseDto extends PlanResponseDto {
  @ApiProperty({ example: 'Plan created successfully.' }) message: string;
}

export class PlanUpdatedResponseDto extends PlanResponseDto {
  @ApiProperty({ example: 'Plan updated successfully.' }) message: string;
}

export class PlanListResponseDto extends PageEnvelopeDto {
  @ApiProperty({ type: [PlanDto] }) plans: PlanDto[];
}

export class PlanDeletedResponseDto {
  @ApiProperty({ example: 'success' }) status: 'success';
  @ApiProperty({ example: 'Plan deleted successfully.' }) message: string;
}

class SubscriberCustomerDto {
  @ApiProperty({ example: 'Maria Silva' }) name: string;
  @ApiProperty({ example: 'maria@example.com' }) email: string;
  @ApiProperty({ example: '+258841234567' }) mobile_number: string;
}

/** The plan subscriber list item of the OpenAPI description. */
export class SubscriberDto {
  @ApiProperty({ example: 'ORD-20250131-8F3K2Q' }) order_number: string;
  @ApiProperty({ example: 500 }) amount: number;
  @ApiProperty({ example: 'MZN' }) currency: string;
  @ApiProperty({ example: 'approved', enum: ['approved', 'refunded'] }) status: string;
  @ApiProperty({ type: SubscriberCustomerDto }) customer: SubscriberCustomerDto;
  @ApiTimestamp({ example: '2025-01-31T12:00:00.000000Z' }) created_at: string;
  @ApiTimestamp({ example: '2025-01-31T12:00:00.000000Z' }) updated_at: string;
}

class SubscriberPlanDto {
  @ApiProperty({ example: 'plan_7Hk2mQ9xW3nB5vLc' }) plan_id: string;
  @ApiProperty({ example: 'Mensal' }) name: string;
  @ApiProperty({ example: 'prod_4fQ9xZ2LmN8pR1sT' }) product_pid: string;
}

/** The list envelope of the OpenAPI description with `plan` and `subscribers`. */
export class SubscriberListResponseDto extends PageEnvelopeDto {
  @ApiProperty({ type: SubscriberPlanDto }) plan: SubscriberPlanDto;
  @ApiProperty({ type: [SubscriberDto] }) subscribers: SubscriberDto[];
}
