import { ApiPropertyOptional, ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsInt, IsNotEmpty, IsOptional, IsString, Max, Min, ValidateIf } from 'class-validator';
import { IsMoney } from '../../../../common/http/money-input';

const absent = (value: unknown) => value === undefined || value === null;

/** The offered product is named by `product_id` or `product_pid`; one of them is required. */
export class CreateOrderBumpDto {
  @ApiPropertyOptional({
    type: 'integer',
    example: 42,
    description: 'Id of the product offered as a bump (or give `product_pid`).',
  })
  @ValidateIf((o: CreateOrderBumpDto) => absent(o.product_pid) || !absent(o.product_id))
  @IsDefined({ message: 'product_id or product_pid is required.' })
  @IsInt({ message: 'product_id must be an integer.' })
  @Min(1, { message: 'product_id must be at least 1.' })
  product_id?: number;

  @ApiPropertyOptional({
    example: 'prod_8fK2mQ1xZ9pL3vN7',
    description: 'Public id of the product offered as a bump (or give `product_id`).',
  })
  @IsOptional()
  @IsString({ message: 'product_pid must be a string.' })
  @IsNotEmpty({ message: 'product_pid must not be empty.' })
  product_pid?: string;

  @ApiProperty({ example: 49.9, minimum: 0.01, description: 'Price of the add-on at checkout, at most two decimals.' })
  @IsMoney('price')
  @Min(0.01, { message: 'price must be at least 0.01.' })
  @Max(9_999_999_999.99, { message: 'price must be at most 9999999999.99.' })
  price: number;
}
