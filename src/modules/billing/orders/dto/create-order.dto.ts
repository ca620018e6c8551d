import { ApiProperty } from '@nestjs/swagger';
import { ApiNullable } from '../../../../common/http/api-docs';
import { Transform, Type } from 'class-transformer';
import {
  IsDefined,
  IsInt,
  IsNotEmpty,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  MaxLength,
  Min,
  ValidateBy,
  ValidateNested,
  ValidationOptions,
} from 'class-validator';
import { IsEmailAddress } from '../../../../common/http/email-address';
import { hasAtMostTwoDecimals } from '../../../../common/money';

// Options and checks shared by the decorators and the fast accept path (create-order.fast-accept.ts).
export const URL_OPTIONS = { require_protocol: true, protocols: ['http', 'https'], require_tld: false };
export const AMOUNT_OPTIONS = { allowNaN: false, allowInfinity: false };
export const MOBILE_NUMBER = /^\+[1-9]\d{6,14}$/;
/** The least amount an order is made for (`amount must be at least 10.`). */
export const MIN_ORDER_AMOUNT = 10;
/** A name of spaces alone is no name. */
export const NOT_BLANK = /\S/;
/** `IsNotEmpty` (its rule name too) that also refuses a string of spaces alone. */
const IsNotBlank = (options: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isNotEmpty',
      validator: {
        validate: (value) =>
          value !== '' && value !== null && value !== undefined && (typeof value !== 'string' || NOT_BLANK.test(value)),
      },
    },
    options,
  );
export const isTwoDecimalAmount = (value: unknown) => typeof value === 'number' && hasAtMostTwoDecimals(value);

/** Accepts a JSON number for a string reference (`from_order: 123`). */
export const numberToString = (value: unknown) => (typeof value === 'number' ? String(value) : value);

export class CustomerPayloadDto {
  @ApiProperty({ example: 'Ana Macuácua' })
  @IsString({ message: 'customer.name must be a string.' })
  @IsNotBlank({ message: 'customer.name is required.' })
  @MaxLength(255, { message: 'customer.name must be at most 255 characters.' })
  name: string;

  @ApiProperty({ example: 'ana@example.com', format: 'email' })
  @IsEmailAddress({ message: 'customer.email must be a valid email address.' })
  @MaxLength(255, { message: 'customer.email must be at most 255 characters.' })
  email: string;

  @ApiProperty({ example: '+258841234567', description: 'International format with a leading +.' })
  @IsString({ message: 'customer.mobile_number must be a string.' })
  @Matches(MOBILE_NUMBER, {
    message: 'customer.mobile_number must be in international format with a leading + (for example +258841234567).',
  })
  mobile_number: string;

  @ApiNullable({ type: 'string', example: '841234567', required: false })
  @IsOptional()
  @IsString({ message: 'customer.payment_number must be a string.' })
  @MaxLength(32, { message: 'customer.payment_number must be at most 32 characters.' })
  payment_number?: string | null;
}

export class TrackingDto {
  @ApiNullable({ type: 'string', example: 'facebook', required: false })
  @IsOptional()
  @IsString({ message: 'tracking.utm_source must be a string.' })
  @MaxLength(255, { message: 'tracking.utm_source must be at most 255 characters.' })
  utm_source?: string | null;

  @ApiNullable({ type: 'string', example: 'black-friday', required: false })
  @IsOptional()
  @IsString({ message: 'tracking.utm_campaign must be a string.' })
  @MaxLength(255, { message: 'tracking.utm_campaign must be at most 255 characters.' })
  utm_campaign?: string | null;

  @ApiNullable({ type: 'string', example: 'cpc', required: false })
  @IsOptional()
  @IsString({ message: 'tracking.utm_medium must be a string.' })
  @MaxLength(255, { message: 'tracking.utm_medium must be at most 255 characters.' })
  utm_medium?: string | null;

  @ApiNullable({ type: 'string', example: 'banner-a', required: false })
  @IsOptional()
  @IsString({ message: 'tracking.utm_content must be a string.' })
  @MaxLength(255, { message: 'tracking.utm_content must be at most 255 characters.' })
  utm_content?: string | null;

  @ApiNullable({ type: 'string', example: 'ebook', required: false })
  @IsOptional()
  @IsString({ message: 'tracking.utm_term must be a string.' })
  @MaxLength(255, { message: 'tracking.utm_term must be at most 255 characters.' })
  utm_term?: string | null;
}

/** The order-creation request (the OpenAPI description), plus `tracking` (README, *Choices where the contract is silent*). */
export class CreateOrderDto {
  @ApiProperty({ example: 1500, minimum: 10, description: 'Charged before the discount; at most two decimals.' })
  @IsNumber(AMOUNT_OPTIONS, { message: 'amount must be a number.' })
  @Min(MIN_ORDER_AMOUNT, { message: `amount must be at least ${MIN_ORDER_AMOUNT}.` })
  @ValidateBy({
    name: 'twoDecimals',
    validator: { validate: isTwoDecimalAmount, defaultMessage: () => 'amount must have at most two decimals.' },
  })
  amount: number;

  @ApiProperty({ example: 'prod_4fQ9xZ2LmN8pR1sT' })
  @IsString({ message: 'product_pid must be a string.' })
  @IsNotEmpty({ message: 'product_pid is required.' })
  @MaxLength(64, { message: 'product_pid must be at most 64 characters.' })
  product_pid: string;

  @ApiProperty({ type: CustomerPayloadDto })
  @IsDefined({ message: 'customer is required.' })
  @IsObject({ message: 'customer must be an object.' })
  @ValidateNested()
  @Type(() => CustomerPayloadDto)
  customer: CustomerPayloadDto;

  @ApiNullable({
    type: 'string',
    example: 'plan_7Hk2mQ9xW3nB5vLc',
    description: 'Required for recurring products.',
    required: false,
  })
  @IsOptional()
  @IsString({ message: 'plan_id must be a string.' })
  @MaxLength(64, { message: 'plan_id must be at most 64 characters.' })
  plan_id?: string | null;

  @ApiNullable({
    type: 'string',
    example: 'ORD-8K2M4Q7XPA3Z',
    description: 'A pending or cancelled order of the store (order_number or id) to reuse with a fresh pay_token.',
    required: false,
  })
  @IsOptional()
  @Transform(({ value }) => numberToString(value))
  @IsString({ message: 'from_order must be a string.' })
  @MaxLength(64, { message: 'from_order must be at most 64 characters.' })
  from_order?: string | null;

  @ApiNullable({ type: 'integer', example: 3, required: false })
  @IsOptional()
  @IsInt({ message: 'affiliate_id must be an integer.' })
  @Min(1, { message: 'affiliate_id must be a positive integer.' })
  affiliate_id?: number | null;

  @ApiNullable({ type: 'string', example: 'https://shop.example.com/thanks', format: 'uri', required: false })
  @IsOptional()
  @IsUrl(URL_OPTIONS, { message: 'return_url must be a valid http(s) URL.' })
  @MaxLength(2048, { message: 'return_url must be at most 2048 characters.' })
  return_url?: string | null;

  @ApiNullable({ type: 'string', example: 'https://shop.example.com/cart', format: 'uri', required: false })
  @IsOptional()
  @IsUrl(URL_OPTIONS, { message: 'cancel_url must be a valid http(s) URL.' })
  @MaxLength(2048, { message: 'cancel_url must be at most 2048 characters.' })
  cancel_url?: string | null;

  @ApiNullable({ type: 'string', example: 'WELCOME10', required: false })
  @IsOptional()
  @IsString({ message: 'coupon_code must be a string.' })
  @MaxLength(64, { message: 'coupon_code must be at most 64 characters.' })
  coupon_code?: string | null;

  @ApiNullable({ type: TrackingDto, required: false, description: 'UTM parameters; null or absent = none.' })
  @IsOptional()
  @IsObject({ message: 'tracking must be an object.' })
  @ValidateNested()
  @Type(() => TrackingDto)
  tracking?: TrackingDto | null;
}

export class CreateOrderResponseDto {
  @ApiProperty({ example: 'success' }) status: 'success';
  @ApiProperty({ example: true }) success: boolean;
  @ApiProperty({ example: 'Order created successfully.' }) message: string;
  @ApiNullable({
    type: 'string',
    example: 'https://pay.example.com/token/Xb3kP9qL2mN8vR4tY7wZ1aC5dF6gH0jK',
    format: 'uri',
  })
  checkout_url: string | null;
  @ApiNullable({ type: 'string', example: 'ORD-8K2M4Q7XPA3Z' }) order_number: string | null;
  @ApiNullable({ type: 'string', example: 'Xb3kP9qL2mN8vR4tY7wZ1aC5dF6gH0jK' }) pay_token: string | null;
}
