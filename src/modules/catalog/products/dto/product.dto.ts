import { ApiProperty, ApiPropertyOptional, OmitType, PartialType } from '@nestjs/swagger';
import { ApiNullable, ApiTimestamp } from '../../../../common/http/api-docs';
import {
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { Type } from 'class-transformer';
import { Trim } from '../../../../common/http/transforms';
import { IsMoney } from '../../../../common/http/money-input';
import { PageEnvelopeDto } from '../../../../common/pagination/pagination';
import type { ProductReviewStatus, ProductType } from '../product.entity';

const httpUrl = { protocols: ['http', 'https'], require_protocol: true, require_tld: false };
/** numeric(12,2) holds at most 9,999,999,999.99. */
export const MAX_PRICE = 9_999_999_999.99;

/** whether approved orders get a license key, and how many instances it activates. */
export class LicenseKeysSettingsDto {
  @ApiProperty({ example: true })
  @IsDefined({ message: 'license_keys.enabled is required.' })
  @IsBoolean({ message: 'license_keys.enabled must be a boolean.' })
  enabled: boolean;

  @ApiNullable({
    type: 'integer',
    example: 3,
    minimum: 1,
    maximum: 100000,
    description: 'Instances one key may activate; `null` (the default) = no limit.',
    required: false,
  })
  @IsOptional()
  @IsInt({ message: 'license_keys.activation_limit must be an integer.' })
  @Min(1, { message: 'license_keys.activation_limit must be at least 1.' })
  @Max(100000, { message: 'license_keys.activation_limit must be at most 100000.' })
  activation_limit?: number | null;
}

export class LicenseKeysDto {
  @ApiProperty({ example: false }) enabled: boolean;
  @ApiNullable({ type: 'integer', example: null }) activation_limit: number | null;
}

export class CreateProductDto {
  @ApiProperty({ example: 'Guia de Marketing Digital', maxLength: 255 })
  @Trim()
  @IsString({ message: 'name must be a string.' })
  @IsNotEmpty({ message: 'name is required.' })
  @MaxLength(255, { message: 'name must be at most 255 characters.' })
  name: string;

  @ApiPropertyOptional({ enum: ['one_time', 'recurring'], example: 'one_time', description: 'Default `one_time`.' })
  @IsOptional()
  @IsIn(['one_time', 'recurring'], { message: 'type must be one_time or recurring.' })
  type?: ProductType;

  @ApiNullable({
    type: 'number',
    example: 1500,
    description: 'At least 50 to publish in an MZN store.',
    required: false,
  })
  @IsOptional()
  @IsMoney('price')
  @Min(0, { message: 'price must be at least 0.' })
  @Max(MAX_PRICE, { message: `price must be at most ${MAX_PRICE}.` })
  price?: number | null;

  @ApiNullable({ type: 'string', example: 'Um guia completo para vender online.', maxLength: 10000, required: false })
  @IsOptional()
  @IsString({ message: 'description must be a string.' })
  @MaxLength(10000, { message: 'description must be at most 10000 characters.' })
  description?: string | null;

  @ApiNullable({ type: 'string', example: 'https://example.com/guia', required: false })
  @IsOptional()
  @Trim()
  @IsUrl(httpUrl, { message: 'sale_page_url must be an http(s) URL.' })
  @MaxLength(2048, { message: 'sale_page_url must be at most 2048 characters.' })
  sale_page_url?: string | null;

  @ApiNullable({ type: 'string', example: 'https://example.com/guia.png', required: false })
  @IsOptional()
  @Trim()
  @IsUrl(httpUrl, { message: 'image_url must be an http(s) URL.' })
  @MaxLength(2048, { message: 'image_url must be at most 2048 characters.' })
  image_url?: string | null;

  @ApiNullable({ type: 'string', example: 'Educação', maxLength: 100, required: false })
  @IsOptional()
  @Trim()
  @IsString({ message: 'category must be a string.' })
  @MaxLength(100, { message: 'category must be at most 100 characters.' })
  category?: string | null;

  @ApiNullable({ type: 'string', example: 'Marketing', maxLength: 100, required: false })
  @IsOptional()
  @Trim()
  @IsString({ message: 'subcategory must be a string.' })
  @MaxLength(100, { message: 'subcategory must be at most 100 characters.' })
  subcategory?: string | null;

  @ApiNullable({ type: 'string', example: '+258841234567', required: false })
  @IsOptional()
  @Trim()
  @IsString({ message: 'contact_number must be a string.' })
  @Matches(/^\+?[0-9][0-9 ()-]{5,30}$/, { message: 'contact_number must be a phone number.' })
  contact_number?: string | null;

  @ApiPropertyOptional({
    type: LicenseKeysSettingsDto,
    description: 'License keys for buyers (default disabled): one key per approved order of the product.',
    example: { enabled: true, activation_limit: 3 },
  })
  @IsOptional()
  @ValidateNested()
  @Type(() => LicenseKeysSettingsDto)
  license_keys?: LicenseKeysSettingsDto;
}

/** Every field optional; `null` clears an optional field (not `name` or `type`, which always have a value). */
export class UpdateProductDto extends PartialType(OmitType(CreateProductDto, ['name', 'type'] as const)) {
  @ApiPropertyOptional({ example: 'Guia de Marketing Digital (2ª edição)', maxLength: 255 })
  @ValidateIf((_, value) => value !== undefined)
  @Trim()
  @IsString({ message: 'name must be a string.' })
  @IsNotEmpty({ message: 'name is required.' })
  @MaxLength(255, { message: 'name must be at most 255 characters.' })
  name?: string;

  @ApiPropertyOptional({ enum: ['one_time', 'recurring'], example: 'recurring' })
  @ValidateIf((_, value) => value !== undefined)
  @IsIn(['one_time', 'recurring'], { message: 'type must be one_time or recurring.' })
  type?: ProductType;
}

export class ProductDto {
  @ApiProperty({ type: 'integer', example: 12 }) id: number;
  @ApiProperty({ example: 'prod_4fQ9xZ2LmN8pR1sT' }) pid: string;
  @ApiProperty({ example: 'Guia de Marketing Digital' }) name: string;
  @ApiProperty({ enum: ['one_time', 'recurring'], example: 'one_time' }) type: ProductType;
  @ApiNullable({ example: 1500, type: 'number' }) price: number | null;
  @ApiProperty({ example: 'MZN' }) currency: string;
  @ApiNullable({ example: 'Um guia completo para vender online.', type: 'string' }) description: string | null;
  @ApiNullable({ example: 'https://example.com/guia', type: 'string' }) sale_page_url: string | null;
  @ApiNullable({ example: 'https://example.com/guia.png', type: 'string' }) image_url: string | null;
  @ApiNullable({ example: 'Educação', type: 'string' }) category: string | null;
  @ApiNullable({ example: 'Marketing', type: 'string' }) subcategory: string | null;
  @ApiNullable({ example: '+258841234567', type: 'string' }) contact_number: string | null;
  @ApiProperty({ enum: ['draft', 'pending', 'approved', 'rejected'], example: 'draft' }) status_2: ProductReviewStatus;
  @ApiProperty({ type: LicenseKeysDto }) license_keys: LicenseKeysDto;
  @ApiTimestamp({ example: '2025-01-31T12:00:00.000000Z' }) created_at: string;
  @ApiTimestamp({ example: '2025-01-31T12:00:00.000000Z' }) updated_at: string;
}

export class ProductResponseDto {
  @ApiProperty({ example: 'success' }) status: 'success';
  @ApiProperty({ type: ProductDto }) product: ProductDto;
}

export class ProductCreatedResponseDto extends ProductResponseDto {
  @ApiProperty({ example: 'Product created successfully.' }) message: string;
}

export class ProductUpdatedResponseDto extends ProductResponseDto {
  @ApiProperty({ example: 'Product updated successfully.' }) message: string;
}

export class ProductListResponseDto extends PageEnvelopeDto {
  @ApiProperty({ type: [ProductDto] }) products: ProductDto[];
}

class ProductDeletedDataDto {
  @ApiProperty({ type: 'integer', example: 12 }) id: number;
  @ApiProperty({ example: 'prod_4fQ9xZ2LmN8pR1sT' }) product_pid: string;
}

export class ProductDeletedResponseDto {
  @ApiProperty({ example: 'success' }) status: 'success';
  @ApiProperty({ example: 'Product deleted successfully.' }) message: string;
  @ApiProperty({ type: ProductDeletedDataDto }) data: ProductDeletedDataDto;
}

class PublishDataDto {
  @ApiProperty({ type: 'integer', example: 12 }) product_id: number;
  @ApiProperty({ example: 'prod_4fQ9xZ2LmN8pR1sT' }) product_pid: string;
  @ApiProperty({ example: 'pending', enum: ['pending'] }) status: 'pending';
}

/** The product publish result of the OpenAPI description. */
export class PublishResponseDto {
  @ApiProperty({ example: 'success' }) status: 'success';
  @ApiProperty({ example: 'Product submitted for review.' }) message: string;
  @ApiProperty({ type: PublishDataDto }) data: PublishDataDto;
}
