import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ApiNullable, ApiTimestamp } from '../../../../common/http/api-docs';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, MaxLength, Min } from 'class-validator';
import { PageEnvelopeDto, PaginationQueryDto } from '../../../../common/pagination/pagination';
import { LicenseKeyDto } from '../../licenses/dto/license.dto';
import { ORDER_STATUSES, OrderStatus } from '../order-status';

export class OrderProductDto {
  @ApiProperty({ type: 'integer', example: 12 }) id: number;
  @ApiProperty({ example: 'prod_4fQ9xZ2LmN8pR1sT' }) pid: string;
  @ApiProperty({ example: 'Curso de Fotografia' }) name: string;
  @ApiProperty({ example: 'one_time', enum: ['one_time', 'recurring'] }) type: string;
  @ApiNullable({ type: 'number', example: 1500 }) price: number | null;
}

export class OrderPlanDto {
  @ApiProperty({ example: 'plan_7Hk2mQ9xW3nB5vLc' }) plan_id: string;
  @ApiProperty({ example: 'Mensal' }) name: string;
  @ApiProperty({ example: 300 }) price: number;
  @ApiProperty({ example: 'month', enum: ['day', 'week', 'month', 'year'] }) interval: string;
  @ApiProperty({ type: 'integer', example: 1 }) interval_count: number;
}

export class OrderCustomerDto {
  @ApiProperty({ type: 'integer', example: 7 }) id: number;
  @ApiProperty({ example: 'Ana Macuácua' }) name: string;
  @ApiProperty({ example: 'ana@example.com' }) email: string;
  @ApiProperty({ example: '+258841234567' }) mobile_number: string;
  @ApiNullable({ type: 'string', example: '841234567' }) payment_number: string | null;
}

export class OrderDiscountDto {
  @ApiProperty({ type: 'integer', example: 4 }) id: number;
  @ApiProperty({ example: 'WELCOME10' }) code: string;
  @ApiProperty({ example: 150 }) amount: number;
}

export class TrackingResponseDto {
  @ApiNullable({ type: 'string', example: 'facebook' }) utm_source: string | null;
  @ApiNullable({ type: 'string', example: 'black-friday' }) utm_campaign: string | null;
  @ApiNullable({ type: 'string', example: 'cpc' }) utm_medium: string | null;
  @ApiNullable({ type: 'string', example: null }) utm_content: string | null;
  @ApiNullable({ type: 'string', example: null }) utm_term: string | null;
}

export class OrderTransactionDto {
  @ApiNullable({ type: 'string', example: 'sbx_9Qm2Lx7Vb4Nc8Rt1Kp3W' }) transaction_id: string | null;
  @ApiNullable({ type: 'string', example: 'mpesa' }) payment_method: string | null;
  @ApiNullable({ type: 'string', example: '841234567' }) payment_number: string | null;
}

export class OrderAffiliateDto {
  @ApiProperty({ type: 'integer', example: 3 }) id: number;
  @ApiNullable({ type: 'number', example: 150, description: 'Computed on approval.' }) commission_amount: number | null;
}

export class OrderBumpLineDto {
  @ApiProperty({ example: 'prod_Q2w3E4r5T6y7U8i9' }) product_pid: string;
  @ApiProperty({ example: 'Presets Lightroom' }) name: string;
  @ApiProperty({ example: 250 }) price: number;
}

export class OrderSubscriptionDto {
  @ApiProperty({
    type: 'integer',
    example: 12,
    description: 'The subscription this order started or renews (GET /v1/subscriptions/{id}).',
  })
  id: number;
  @ApiProperty({ example: 'active', enum: ['active', 'past_due', 'cancelled', 'expired'] }) status: string;
  @ApiTimestamp({ example: '2026-01-31T10:00:00.000000Z' }) start_date: string;
  @ApiTimestamp({ example: '2026-02-28T10:00:00.000000Z' }) end_date: string;
  @ApiTimestamp({ example: null, nullable: true }) cancelled_at: string | null;
}

/** One payment attempt of the order. */
export class OrderPaymentDto {
  @ApiProperty({ example: 'mpesa', description: 'The checkout payment method.' }) method: string;
  @ApiProperty({ example: 'mpesa', description: 'The gateway that handled it (`sandbox`, `mpesa`, `stripe`, …).' })
  provider: string;
  @ApiProperty({ example: 'succeeded', enum: ['processing', 'succeeded', 'failed', 'unknown'] }) status: string;
  @ApiNullable({
    type: 'string',
    example: 'ABC1DEF2GH',
    description:
      "The gateway's transaction id; a declined attempt the gateway gave none has the one it gave the order. Null until the attempt ends.",
  })
  transaction_id: string | null;
  @ApiNullable({
    type: 'string',
    example: null,
    description: "The gateway's code (`INS-2006`, `expired`, `unconfirmed`, …).",
  })
  error_code: string | null;
  @ApiNullable({ type: 'string', example: null }) error_message: string | null;
  @ApiTimestamp({ example: '2026-01-31T10:01:40.000000Z' }) created_at: string;
}

/** The order summary of the customer-orders list. */
export class OrderSummaryDto {
  @ApiProperty({ type: 'integer', example: 41 }) id: number;
  @ApiProperty({ example: 'ORD-8K2M4Q7XPA3Z' }) order_number: string;
  @ApiProperty({ example: 1350 }) amount: number;
  @ApiProperty({ example: 'MZN' }) currency: string;
  @ApiProperty({ example: 'approved', enum: ORDER_STATUSES }) status: OrderStatus;
  @ApiTimestamp({ example: '2026-01-31T10:00:00.000000Z' }) created_at: string;
  @ApiTimestamp({ example: '2026-01-31T10:02:11.000000Z' }) updated_at: string;
}

/** The whole order (README, *Choices where the contract is silent*): product, plan, customer, amounts, discount, tracking, transaction. */
export class OrderDto extends OrderSummaryDto {
  @ApiProperty({ example: 1500, description: 'The request amount plus accepted bumps.' }) original_amount: number;
  @ApiProperty({ example: 150 }) discount_amount: number;
  @ApiNullable({ type: 'string', example: 'WELCOME10' }) coupon_code: string | null;
  @ApiNullable({ type: OrderDiscountDto }) discount: OrderDiscountDto | null;
  @ApiNullable({ type: OrderProductDto, description: 'null once the product was deleted.' })
  product: OrderProductDto | null;
  @ApiNullable({ type: OrderPlanDto }) plan: OrderPlanDto | null;
  @ApiProperty({ type: OrderCustomerDto }) customer: OrderCustomerDto;
  @ApiProperty({ type: TrackingResponseDto }) tracking: TrackingResponseDto;
  @ApiNullable({ type: 'string', example: 'sbx_9Qm2Lx7Vb4Nc8Rt1Kp3W' }) transaction_id: string | null;
  @ApiProperty({ type: OrderTransactionDto }) transaction: OrderTransactionDto;
  @ApiNullable({ type: OrderAffiliateDto }) affiliate: OrderAffiliateDto | null;
  @ApiProperty({ type: [OrderBumpLineDto] }) order_bump: OrderBumpLineDto[];
  @ApiNullable({ type: OrderSubscriptionDto }) subscription: OrderSubscriptionDto | null;
  @ApiNullable({ type: 'string', example: 'https://shop.example.com/thanks' }) return_url: string | null;
  @ApiNullable({ type: 'string', example: null }) cancel_url: string | null;
  @ApiTimestamp({ example: '2026-01-31T10:02:11.000000Z', nullable: true }) approved_at: string | null;
  @ApiTimestamp({ example: null, nullable: true }) cancelled_at: string | null;
  @ApiTimestamp({ example: null, nullable: true }) refunded_at: string | null;
  @ApiProperty({
    type: [OrderPaymentDto],
    required: false,
    description: 'The payment attempts, newest first. On `GET /v1/orders/{id}` and the refund answer; not in lists.',
  })
  payments?: OrderPaymentDto[];
  @ApiProperty({
    type: [LicenseKeyDto],
    required: false,
    description:
      'License keys the order delivered (a renewal shows its subscription’s). On `GET /v1/orders/{id}`; not in lists.',
  })
  license_keys?: LicenseKeyDto[];
}

export class OrderEnvelopeDto {
  @ApiProperty({ example: 'success' }) status: 'success';
  @ApiProperty({ type: OrderDto }) order: OrderDto;
}

export class RefundResponseDto extends OrderEnvelopeDto {
  @ApiProperty({ example: 'Order refunded successfully.' }) message: string;
}

export class OrderListDto extends PageEnvelopeDto {
  @ApiProperty({ type: [OrderDto] }) orders: OrderDto[];
}

export class OrderSummaryListDto extends PageEnvelopeDto {
  @ApiProperty({ type: [OrderSummaryDto] }) orders: OrderSummaryDto[];
}

export class ListOrdersQueryDto extends PaginationQueryDto {
  @ApiPropertyOptional({ enum: ORDER_STATUSES, example: 'approved' })
  @IsOptional()
  @IsIn(ORDER_STATUSES, { message: `status must be one of: ${ORDER_STATUSES.join(', ')}.` })
  status?: OrderStatus;

  @ApiPropertyOptional({ example: 'prod_4fQ9xZ2LmN8pR1sT', description: 'Product id or product_pid.' })
  @IsOptional()
  @IsString({ message: 'product must be a string.' })
  @MaxLength(64, { message: 'product must be at most 64 characters.' })
  product?: string;

  @ApiPropertyOptional({ type: 'integer', example: 7, description: 'Customer id.' })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'customer must be an integer.' })
  @Min(1, { message: 'customer must be a positive integer.' })
  customer?: number;

  @ApiPropertyOptional({ example: 'ana@example.com', description: "The customer's email (any case)." })
  @IsOptional()
  @IsString({ message: 'email must be a string.' })
  @MaxLength(255, { message: 'email must be at most 255 characters.' })
  email?: string;
}

export class CustomerOrdersQueryDto extends PaginationQueryDto {
  @ApiPropertyOptional({ enum: ORDER_STATUSES, example: 'approved' })
  @IsOptional()
  @IsIn(ORDER_STATUSES, { message: `status must be one of: ${ORDER_STATUSES.join(', ')}.` })
  status?: OrderStatus;
}
