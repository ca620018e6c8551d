import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ApiNullable } from '../../../common/http/api-docs';
import {
  ArrayNotEmpty,
  ArrayUnique,
  IsArray,
  IsIn,
  IsOptional,
  IsString,
  IsUrl,
  MaxLength,
  ValidateBy,
  ValidateIf,
  ValidationOptions,
} from 'class-validator';
import { ORDER_EVENT_KINDS } from '../../billing';
import { IsWebhookEventKind } from '../event-kinds/known-kinds';

const URL_OPTIONS: Parameters<typeof IsUrl>[0] = {
  protocols: ['http', 'https'],
  require_protocol: true,
  require_tld: false,
};

/** A product `id` (integer) or `pid` (string). */
function IsProductRef(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isProductRef',
      validator: {
        validate: (value: unknown) =>
          (typeof value === 'number' && Number.isInteger(value) && value > 0) ||
          (typeof value === 'string' && value.trim().length > 0 && value.length <= 64),
      },
    },
    { message: 'product_details must be a product id or pid.', ...options },
  );
}

export class CreateWebhookDto {
  @ApiProperty({ example: 'https://example.com/hooks/orders', description: 'http(s) URL that receives the POSTs' })
  @IsUrl(URL_OPTIONS, { message: 'url must be a valid http(s) URL.' })
  @MaxLength(2048, { message: 'url must be at most 2048 characters.' })
  url: string;

  @ApiProperty({ enum: ORDER_EVENT_KINDS, isArray: true, example: ['order_approved', 'order_cancelled'] })
  @IsArray({ message: 'events must be an array.' })
  @ArrayNotEmpty({ message: 'events must not be empty.' })
  @ArrayUnique({ message: 'events must not repeat an event.' })
  @IsWebhookEventKind()
  events: string[];

  @ApiNullable({
    schema: { oneOf: [{ type: 'integer' }, { type: 'string' }] },
    example: 'prod_8fK2mQ1xZ9pL3vN7',
    description: 'Limit the webhook to one product (its id or pid); omitted or null = every product of the store',
    required: false,
  })
  @IsOptional()
  @IsProductRef()
  product_details?: number | string | null;

  @ApiNullable({ type: 'string', example: 'Orders to CRM', maxLength: 255, required: false })
  @IsOptional()
  @IsString({ message: 'name must be a string.' })
  @MaxLength(255, { message: 'name must be at most 255 characters.' })
  name?: string | null;
}

export class UpdateWebhookDto {
  @ApiPropertyOptional({ example: 'https://example.com/hooks/orders-v2' })
  @IsOptional()
  @IsUrl(URL_OPTIONS, { message: 'url must be a valid http(s) URL.' })
  @MaxLength(2048, { message: 'url must be at most 2048 characters.' })
  url?: string;

  @ApiPropertyOptional({ enum: ORDER_EVENT_KINDS, isArray: true, example: ['order_approved', 'order_refund'] })
  @IsOptional()
  @IsArray({ message: 'events must be an array.' })
  @ArrayNotEmpty({ message: 'events must not be empty.' })
  @ArrayUnique({ message: 'events must not repeat an event.' })
  @IsWebhookEventKind()
  events?: string[];

  @ApiNullable({
    schema: { oneOf: [{ type: 'integer' }, { type: 'string' }] },
    example: 12,
    description: 'A product id or pid; null = every product of the store',
    required: false,
  })
  @ValidateIf((_, value) => value !== undefined && value !== null)
  @IsProductRef()
  product_details?: number | string | null;

  @ApiNullable({ type: 'string', example: 'Orders to CRM', maxLength: 255, required: false })
  @ValidateIf((_, value) => value !== undefined && value !== null)
  @IsString({ message: 'name must be a string.' })
  @MaxLength(255, { message: 'name must be at most 255 characters.' })
  name?: string | null;

  @ApiPropertyOptional({
    enum: ['active', 'inactive'],
    example: 'inactive',
    description: 'Inactive webhooks receive nothing',
  })
  @IsOptional()
  @IsIn(['active', 'inactive'], { message: 'status must be active or inactive.' })
  status?: 'active' | 'inactive';
}
