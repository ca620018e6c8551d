import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  IsDefined,
  IsEmail,
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
} from 'class-validator';
import { hasAtMostTwoDecimals } from '../../../../common/money';

const URL_OPTIONS = { require_protocol: true, protocols: ['http', 'https'], require_tld: false };

/** Accepts a JSON number for a string reference (`from_order: 123`). */
const numberToString = Transform(({ value }) => (typeof value === 'number' ? String(value) : value));

export class CustomerPayloadDto {
  @ApiProperty({ example: 'Ana Macuácua' })
  @IsString({ message: 'customer.name must be a string.' })
  @IsNotEmpty({ message: 'customer.name is required.' })
  @MaxLength(255, { message: 'customer.name must be at most 255 characters.' })
  name: string;

  @ApiProperty({ example: 'ana@example.com', format: 'email' })
  @IsEmail({}, { message: 'customer.email must be a valid email address.' })
  @MaxLength(255, { message: 'customer.email must be at most 255 characters.' })
  email: string;

  @ApiProperty({ example: '+258841234567', description: 'International format with a leading +.' })
  @IsString({ message: 'customer.mobile_number must be a string.' })
  @Matches(/^\+[1-9]\d{6,14}$/, { message: 'customer.mobile_number must be in international format with a leading + (for example +258841234567).' })
  mobile_number: string;

  @ApiPropertyOptional({ type: String, example: '841234567', nullable: true })
  @IsOptional()
  @IsString({ message: 'customer.payment_number must be a string.' })
  @MaxLength(32, { message: 'customer.payment_number must be at most 32 characters.' })
  payment_number?: string | null;
}

export class TrackingDto {
  @ApiPropertyOptional({ type: String, example: 'facebook', nullable: true })
  @IsOptional()
  @IsString({ message: 'tracking.utm_source must be a string.' })
  @MaxLength(255, { message: 'tracking.utm_source must be at most 255 characters.' })
  utm_source?: string | null;

  @ApiPropertyOptional({ type: String, example: 'black-friday', nullable: true })
  @IsOptional()
  @IsString({ message: 'tracking.utm_campaign must be a string.' })
  @MaxLength(255, { message: 'tracking.utm_campaign must be at most 255 characters.' })
  utm_campaign?: string | null;

  @ApiPropertyOptional({ type: String, example: 'cpc', nullable: true })
  @IsOptional()
  @IsString({ message: 'tracking.utm_medium must be a string.' })
  @MaxLength(255, { message: 'tracking.utm_medium must be at most 255 characters.' })
  utm_medium?: string | null;

  @ApiPropertyOptional({ type: String, example: 'banner-a', nullable: true })
  @IsOptional()
  @IsString({ message: 'tracking.utm_content must be a string.' })
  @MaxLength(255, { message: 'tracking.utm_content must be at most 255 characters.' })
  utm_content?: string | null;

  @ApiPropertyOptional({ type: String, example: 'ebook', nullable: true })
  @IsOptional()
  @IsString({ message: 'tracking.utm_term must be a string.' })
  @MaxLength(255, { message: 'tracking.utm_term must be at most 255 characters.' })
  utm_term?: string | null;
}

/** The order-creation request of spec §2.1, plus `tracking` (decisions §7). */
export class CreateOrderDto {
  @ApiProperty({ example: 1500, minimum: 10, description: 'Charged before the discount; at most two decimals.' })
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'amount must be a number.' })
  @Min(10, { message: 'amount must be at least 10.' })
  @ValidateBy({
    name: 'twoDecimals',
    validator: { validate: (v: unknown) => typeof v === 'number' && hasAtMostTwoDecimals(v), defaultMessage: () => 'amount must have at most two decimals.' },
  })
  amount: number;

  @ApiProperty({ example: 'prd_7Hk2mQ9xLp' })
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

  @ApiPropertyOptional({ type: String, example: 'pln_4f9QaZ', nullable: true, description: 'Required for recurring products.' })
  @IsOptional()
  @IsString({ message: 'plan_id must be a string.' })
  @MaxLength(64, { message: 'plan_id must be at most 64 characters.' })
  plan_id?: string | null;

  @ApiPropertyOptional({
    type: String,
    example: 'ORD-8K2M4Q7XPA3Z',
    nullable: true,
    description: 'A pending or cancelled order of the store (order_number or id) to reuse with a fresh pay_token.',
  })
  @IsOptional()
  @numberToString
  @IsString({ message: 'from_order must be a string.' })
  @MaxLength(64, { message: 'from_order must be at most 64 characters.' })
  from_order?: string | null;

  @ApiPropertyOptional({ type: 'integer', example: 3, nullable: true })
  @IsOptional()
  @IsInt({ message: 'affiliate_id must be an integer.' })
  @Min(1, { message: 'affiliate_id must be a positive integer.' })
  affiliate_id?: number | null;

  @ApiPropertyOptional({ type: String, example: 'https://shop.example.com/thanks', nullable: true, format: 'uri' })
  @IsOptional()
  @IsUrl(URL_OPTIONS, { message: 'return_url must be a valid http(s) URL.' })
  @MaxLength(2048, { message: 'return_url must be at most 2048 characters.' })
  return_url?: string | null;

  @ApiPropertyOptional({ type: String, example: 'https://shop.example.com/cart', nullable: true, format: 'uri' })
  @IsOptional()
  @IsUrl(URL_OPTIONS, { message: 'cancel_url must be a valid http(s) URL.' })
  @MaxLength(2048, { message: 'cancel_url must be at most 2048 characters.' })
  cancel_url?: string | null;

  @ApiPropertyOptional({ type: String, example: 'WELCOME10', nullable: true })
  @IsOptional()
  @IsString({ message: 'coupon_code must be a string.' })
  @MaxLength(64, { message: 'coupon_code must be at most 64 characters.' })
  coupon_code?: string | null;

  @ApiPropertyOptional({ type: TrackingDto })
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
  @ApiProperty({ type: String, example: 'https://pay.example.com/token/Xb3kP9…', format: 'uri', nullable: true }) checkout_url: string | null;
  @ApiProperty({ type: String, example: 'ORD-8K2M4Q7XPA3Z', nullable: true }) order_number: string | null;
  @ApiProperty({ type: String, example: 'Xb3kP9qL2mN8vR4tY7wZ1aC5dF6gH0jK', nullable: true }) pay_token: string | null;
}
