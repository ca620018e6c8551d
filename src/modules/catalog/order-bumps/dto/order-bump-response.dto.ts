import { ApiProperty } from '@nestjs/swagger';
import { ApiTimestamp } from '../../../../common/http/api-docs';
import { PageEnvelopeDto } from '../../../../common/pagination/pagination';

export class BumpProductDto {
  @ApiProperty({ type: 'integer', example: 42 }) id: number;
  @ApiProperty({ example: 'prod_8fK2mQ1xZ9pL3vN7' }) pid: string;
  @ApiProperty({ example: 'Workbook (PDF)' }) name: string;
}

export class OrderBumpDto {
  @ApiProperty({ type: 'integer', example: 3 }) id: number;
  @ApiProperty({ example: 'prod_4fQ9xZ2LmN8pR1sT', description: 'The product whose checkout offers the bump.' })
  product_pid: string;
  @ApiProperty({ type: BumpProductDto, description: 'The product offered.' }) bump_product: BumpProductDto;
  @ApiProperty({ example: 49.9 }) price: number;
  @ApiTimestamp({ example: '2026-01-15T10:20:30.123000Z' }) created_at: string;
}

export class CreateOrderBumpResponseDto {
  @ApiProperty({ example: 'success' }) status: 'success';
  @ApiProperty({ example: 'Order bump created.' }) message: string;
  @ApiProperty({ type: OrderBumpDto }) order_bump: OrderBumpDto;
}

/** The list envelope of every list (decisions: `page`, `per_page`, `last_page`, `total`). */
export class OrderBumpListResponseDto extends PageEnvelopeDto {
  @ApiProperty({ type: [OrderBumpDto], description: 'In the order they were added.' }) order_bumps: OrderBumpDto[];
}

class DeletedOrderBumpDto {
  @ApiProperty({ example: 'prod_4fQ9xZ2LmN8pR1sT' }) product_pid: string;
  @ApiProperty({ type: 'integer', example: 3 }) order_bump_id: number;
}

export class OrderBumpDeletedResponseDto {
  @ApiProperty({ example: 'success' }) status: 'success';
  @ApiProperty({ example: 'Order bump deleted.' }) message: string;
  @ApiProperty({ type: DeletedOrderBumpDto }) data: DeletedOrderBumpDto;
}
