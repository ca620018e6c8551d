import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateBy,
  ValidationArguments,
} from 'class-validator';
import { ApiNullable, ApiTimestamp } from '../../../../common/http/api-docs';
import { PageEnvelopeDto, PaginationQueryDto } from '../../../../common/pagination/pagination';
import { LICENSE_STATUSES, LicenseStatus } from '../license-key.entity';

const missing = (value: unknown) => value === undefined || value === null || value === '';

/** A required string field with one message per problem (`<field> is required.` when absent). */
const RequiredText = (field: string, max: number) =>
  ValidateBy({
    name: 'requiredText',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && value.trim() !== '' && value.length <= max,
      defaultMessage: ({ value }: ValidationArguments) =>
        missing(value) || (typeof value === 'string' && value.trim() === '')
          ? `${field} is required.`
          : typeof value !== 'string'
            ? `${field} must be a string.`
            : `${field} must be at most ${max} characters.`,
    },
  });

/** A required positive int4 id. */
const RequiredId = (field: string) =>
  ValidateBy({
    name: 'requiredId',
    validator: {
      validate: (value: unknown) =>
        Number.isInteger(value) && (value as number) >= 1 && (value as number) <= 2_147_483_647,
      defaultMessage: ({ value }: ValidationArguments) =>
        missing(value)
          ? `${field} is required.`
          : Number.isInteger(value)
            ? `${field} must be between 1 and 2147483647.`
            : `${field} must be an integer.`,
    },
  });

export const EXAMPLE_LICENSE_KEY = 'K7QX2-M4RTZ-ZP3WN-H6VYC';

/** A key as the order, webhooks and the public license API show it. */
export class LicenseKeyDto {
  @ApiProperty({ type: 'integer', example: 41 }) id: number;
  @ApiProperty({
    example: EXAMPLE_LICENSE_KEY,
    pattern: '^[A-Z2-7]{5}(-[A-Z2-7]{5}){3}$',
    description: 'Base32, 100 random bits.',
  })
  key: string;
  @ApiProperty({ example: 'prod_4fQ9xZ2LmN8pR1sT' }) product_pid: string;
  @ApiProperty({ enum: LICENSE_STATUSES, example: 'active' }) status: LicenseStatus;
  @ApiNullable({ type: 'integer', example: 3, description: '`null` = no limit.' }) activation_limit: number | null;
  @ApiProperty({ type: 'integer', example: 1 }) activations: number;
  @ApiTimestamp({
    nullable: true,
    example: '2026-02-28T10:00:00.000000Z',
    description: "The subscription's `end_date`, moved by each renewal; `null` for a one-time purchase.",
  })
  expires_at: string | null;
}

export class LicenseInstanceDto {
  @ApiProperty({ type: 'integer', example: 7 }) id: number;
  @ApiProperty({ example: 'Ana’s laptop' }) name: string;
  @ApiTimestamp() created_at: string;
}

export class SellerLicenseKeyDto extends LicenseKeyDto {
  @ApiProperty({ type: 'integer', example: 1024 }) order_id: number;
  @ApiTimestamp() created_at: string;
  @ApiTimestamp() updated_at: string;
}

export class SellerLicenseKeyWithInstancesDto extends SellerLicenseKeyDto {
  @ApiProperty({ type: [LicenseInstanceDto] }) instances: LicenseInstanceDto[];
}

export class LicenseListDto extends PageEnvelopeDto {
  @ApiProperty({ type: [SellerLicenseKeyDto] }) licenses: SellerLicenseKeyDto[];
}

export class LicenseEnvelopeDto {
  @ApiProperty({ example: 'success' }) status: 'success';
  @ApiProperty({ type: SellerLicenseKeyWithInstancesDto }) license: SellerLicenseKeyWithInstancesDto;
}

export class LicenseChangedDto extends LicenseEnvelopeDto {
  @ApiProperty({ example: 'License key disabled.' }) message: string;
}

export class ListLicensesQueryDto extends PaginationQueryDto {
  @ApiPropertyOptional({ description: 'Product id or `product_pid`.', example: 'prod_demo_guide' })
  @IsOptional()
  @IsString({ message: 'product must be a string.' })
  @MaxLength(255, { message: 'product must be at most 255 characters.' })
  product?: string;

  @ApiPropertyOptional({ description: 'Order id or `order_number`.', example: 'ORD-8K2M4Q7XPA3Z' })
  @IsOptional()
  @IsString({ message: 'order must be a string.' })
  @MaxLength(255, { message: 'order must be at most 255 characters.' })
  order?: string;

  @ApiPropertyOptional({ enum: LICENSE_STATUSES, example: 'active' })
  @IsOptional()
  @IsIn(LICENSE_STATUSES, { message: `status must be one of: ${LICENSE_STATUSES.join(', ')}.` })
  status?: LicenseStatus;
}

const licenseKeyField = () =>
  ApiProperty({
    example: EXAMPLE_LICENSE_KEY,
    description:
      'The key the buyer received. Any text not of a key issued, whatever its length, is `License key not found.`',
  });

/**
 * The key is looked up by its SHA-256 hash, so any length can be asked about: anything not of a key's
 * form gets the same 404 as an unknown key (README, *License keys*), a long text included.
 */
const LICENSE_KEY_TEXT = Number.MAX_SAFE_INTEGER;

export class ActivateLicenseDto {
  @licenseKeyField()
  @RequiredText('license_key', LICENSE_KEY_TEXT)
  license_key: string;

  @ApiProperty({ example: 'Ana’s laptop', maxLength: 255 })
  @RequiredText('instance_name', 255)
  instance_name: string;
}

export class ValidateLicenseDto {
  @licenseKeyField()
  @RequiredText('license_key', LICENSE_KEY_TEXT)
  license_key: string;

  @ApiPropertyOptional({ type: 'integer', example: 7, description: 'Also check that this instance is activated.' })
  // A JSON number only, as `deactivate` takes it: "3" is a value of the wrong type, a 422 (the
  // errors of the OpenAPI description), not converted.
  @IsOptional()
  @IsInt({ message: 'instance_id must be an integer.' })
  @Min(1, { message: 'instance_id must be at least 1.' })
  @Max(2_147_483_647, { message: 'instance_id must be at most 2147483647.' })
  instance_id?: number;
}

export class DeactivateLicenseDto {
  @licenseKeyField()
  @RequiredText('license_key', LICENSE_KEY_TEXT)
  license_key: string;

  @ApiProperty({ type: 'integer', example: 7 })
  @RequiredId('instance_id')
  instance_id: number;
}

export class LicenseInstanceRefDto {
  @ApiProperty({ type: 'integer', example: 7 }) id: number;
  @ApiProperty({ example: 'Ana’s laptop' }) name: string;
}

export class ActivatedLicenseDto {
  @ApiProperty({ example: 'success' }) status: 'success';
  @ApiProperty({ type: LicenseKeyDto }) license: LicenseKeyDto;
  @ApiProperty({ type: LicenseInstanceRefDto }) instance: LicenseInstanceRefDto;
}

export class ValidatedLicenseDto {
  @ApiProperty({ example: 'success' }) status: 'success';
  @ApiProperty({ example: true }) valid: boolean;
  @ApiNullable({ type: 'string', enum: ['disabled', 'expired', 'unknown_instance'], example: null })
  reason: 'disabled' | 'expired' | 'unknown_instance' | null;
  @ApiProperty({ type: LicenseKeyDto }) license: LicenseKeyDto;
}

export class DeactivatedLicenseDto {
  @ApiProperty({ example: 'success' }) status: 'success';
  @ApiProperty({ type: LicenseKeyDto }) license: LicenseKeyDto;
}
