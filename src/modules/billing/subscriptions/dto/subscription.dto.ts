import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { ApiNullable, ApiTimestamp } from '../../../../common/http/api-docs';
import { MAX_INT4 } from '../../../../common/http/path-id';
import { PageEnvelopeDto, PaginationQueryDto } from '../../../../common/pagination/pagination';
import { SUBSCRIPTION_STATUSES, SubscriptionStatus } from '../subscription.entity';

export class SubscriptionPlanDto {
  @ApiProperty({ example: 'plan_3Jd9Kq2Lm8' }) plan_id: string;
  @ApiProperty({ example: 'Mensal' }) name: string;
  @ApiProperty({ example: 300, description: 'The current price: what the next renewal order charges.' }) price: number;
  @ApiProperty({
    example: 'month',
    enum: ['day', 'week', 'month', 'year'],
    description: 'The interval the subscription renews by (the plan’s when it started).',
  })
  interval: string;
  @ApiProperty({ type: 'integer', example: 1 }) interval_count: number;
}

export class SubscriptionCustomerDto {
  @ApiProperty({ type: 'integer', example: 7 }) id: number;
  @ApiProperty({ example: 'Ana Maria' }) name: string;
  @ApiProperty({ example: 'ana@example.com' }) email: string;
  @ApiProperty({ example: '+258841234567' }) mobile_number: string;
}

/** A subscription and the orders of its periods. */
export class SubscriptionDto {
  @ApiProperty({ type: 'integer', example: 12 }) id: number;
  @ApiProperty({ enum: SUBSCRIPTION_STATUSES, example: 'active' }) status: SubscriptionStatus;
  @ApiNullable({ type: SubscriptionPlanDto, description: 'null once the plan was deleted.' })
  plan: SubscriptionPlanDto | null;
  @ApiNullable({ type: SubscriptionCustomerDto }) customer: SubscriptionCustomerDto | null;
  @ApiTimestamp({ example: '2026-01-31T10:00:00.000000Z' }) start_date: string;
  @ApiTimestamp({ example: '2026-02-28T10:00:00.000000Z', description: 'End of the paid period.' })
  end_date: string;
  @ApiTimestamp({ example: null, nullable: true }) cancelled_at: string | null;
  @ApiProperty({ example: false, description: 'Cancelled to end at end_date; the status stays active until then.' })
  cancel_at_period_end: boolean;
  @ApiProperty({
    type: [String],
    example: ['ORD-8K2M4Q7XPA3Z', 'ORD-Q2w3E4r5T6y7'],
    description: 'The order of every period, first period first (the last may be an open renewal).',
  })
  orders: string[];
  @ApiTimestamp({ example: '2026-01-31T10:00:00.000000Z' }) created_at: string;
  @ApiTimestamp({ example: '2026-01-31T10:00:00.000000Z' }) updated_at: string;
}

export class SubscriptionEnvelopeDto {
  @ApiProperty({ example: 'success' }) status: 'success';
  @ApiProperty({ type: SubscriptionDto }) subscription: SubscriptionDto;
}

export class SubscriptionCancelledDto extends SubscriptionEnvelopeDto {
  @ApiProperty({ example: 'Subscription cancelled.' }) message: string;
}

export class SubscriptionListDto extends PageEnvelopeDto {
  @ApiProperty({ type: [SubscriptionDto] }) subscriptions: SubscriptionDto[];
}

export class ListSubscriptionsQueryDto extends PaginationQueryDto {
  @ApiPropertyOptional({ enum: SUBSCRIPTION_STATUSES, example: 'active' })
  @IsOptional()
  @IsIn(SUBSCRIPTION_STATUSES, { message: `status must be one of: ${SUBSCRIPTION_STATUSES.join(', ')}.` })
  status?: SubscriptionStatus;

  @ApiPropertyOptional({ example: 'plan_3Jd9Kq2Lm8', description: 'The plan’s plan_id or id.' })
  @IsOptional()
  @IsString({ message: 'plan must be a string.' })
  @MaxLength(64, { message: 'plan must be at most 64 characters.' })
  plan?: string;

  @ApiPropertyOptional({ type: 'integer', example: 7, description: 'Customer id.' })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'customer must be an integer.' })
  @Min(1, { message: 'customer must be a positive integer.' })
  @Max(MAX_INT4, { message: `customer must be at most ${MAX_INT4}.` })
  customer?: number;
}

export class CancelSubscriptionDto {
  @ApiPropertyOptional({
    type: Boolean,
    example: true,
    description: 'false: cancelled at once; true (the default): at the end of the paid period.',
  })
  @IsOptional()
  @IsBoolean({ message: 'at_period_end must be a boolean.' })
  at_period_end?: boolean;
}
