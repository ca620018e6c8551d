import { ApiProperty } from '@nestjs/swagger';
import { ApiNullable, ApiTimestamp } from '../../../common/http/api-docs';
import { PageEnvelopeDto } from '../../../common/pagination/pagination';

/** Exactly. */
export class DiscountDto {
  @ApiProperty({ type: 'integer', example: 7 }) id: number;
  @ApiProperty({ example: 'SAVE10', description: 'As the seller wrote it; unique per store ignoring case.' })
  code: string;
  @ApiProperty({ enum: ['fixed', 'percent'], example: 'percent' }) type: 'fixed' | 'percent';
  @ApiProperty({ example: 10, description: 'Amount in the store currency (fixed) or percent (percent).' })
  value: number;
  @ApiProperty({ enum: ['active', 'inactive'], example: 'active' }) status: 'active' | 'inactive';
  @ApiProperty({
    type: 'integer',
    isArray: true,
    example: [12, 15],
    description:
      'Empty array = every product of the store. A deleted product leaves it; a discount whose last product is ' +
      'deleted becomes `inactive`.',
  })
  product_ids: number[];
  @ApiNullable({ type: 'integer', example: 100, description: 'null = unlimited.' }) uses_limit: number | null;
  @ApiProperty({ type: 'integer', example: 3, description: 'Uses held by pending or approved orders.' })
  used_count: number;
  @ApiNullable({ type: 'integer', example: 97, description: 'uses_limit − used_count; null without a limit.' })
  available_uses: number | null;
  @ApiProperty({ example: false }) single_use: boolean;
  @ApiProperty({ example: false, description: 'True exactly when expires_at is null.' }) never_expires: boolean;
  @ApiTimestamp({ example: '2026-12-31T23:59:59.000000Z', nullable: true }) expires_at: string | null;
  @ApiTimestamp({ example: '2026-01-02T03:04:05.678000Z' }) created_at: string;
  @ApiTimestamp({ example: '2026-01-02T03:04:05.678000Z' }) updated_at: string;
}

export class DiscountResponseDto {
  @ApiProperty({ example: 'success', enum: ['success'] }) status: 'success';
  @ApiProperty({ type: DiscountDto }) discount: DiscountDto;
}

export class DiscountCreatedResponseDto extends DiscountResponseDto {
  @ApiProperty({ example: 'Discount created successfully.' }) message: string;
}

export class DiscountUpdatedResponseDto extends DiscountResponseDto {
  @ApiProperty({ example: 'Discount updated successfully.' }) message: string;
}

export class DiscountListResponseDto extends PageEnvelopeDto {
  @ApiProperty({ example: 'success', enum: ['success'] }) declare status: 'success';
  @ApiProperty({ type: [DiscountDto] }) discounts: DiscountDto[];
}

class DeletedDiscountDto {
  @ApiProperty({ type: 'integer', example: 7 }) id: number;
  @ApiProperty({ example: 'SAVE10' }) code: string;
}

export class DiscountDeletedResponseDto {
  @ApiProperty({ example: 'success', enum: ['success'] }) status: 'success';
  @ApiProperty({ example: 'Discount deleted successfully.' }) message: string;
  @ApiProperty({ type: DeletedDiscountDto }) data: DeletedDiscountDto;
}
