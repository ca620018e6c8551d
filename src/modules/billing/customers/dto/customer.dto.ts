import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ApiNullable, ApiTimestamp } from '../../../../common/http/api-docs';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { PageEnvelopeDto, PaginationQueryDto } from '../../../../common/pagination/pagination';

export class CustomerDto {
  @ApiProperty({ type: 'integer', example: 7 }) id: number;
  @ApiProperty({ example: 'Ana Macuácua' }) name: string;
  @ApiProperty({ example: 'ana@example.com' }) email: string;
  @ApiProperty({ example: '+258841234567' }) mobile_number: string;
  @ApiNullable({ type: 'string', example: '841234567' }) payment_number: string | null;
  @ApiTimestamp({ example: '2026-01-31T10:00:00.000000Z' }) created_at: string;
  @ApiTimestamp({ example: '2026-01-31T10:00:00.000000Z' }) updated_at: string;
}

export class CustomerEnvelopeDto {
  @ApiProperty({ example: 'success' }) status: 'success';
  @ApiProperty({ type: CustomerDto }) customer: CustomerDto;
}

export class CustomerListDto extends PageEnvelopeDto {
  @ApiProperty({ type: [CustomerDto] }) customers: CustomerDto[];
}

export class ListCustomersQueryDto extends PaginationQueryDto {
  @ApiPropertyOptional({ example: 'ana@example.com', description: 'Exact email, any case.' })
  @IsOptional()
  @IsString({ message: 'email must be a string.' })
  @MaxLength(255, { message: 'email must be at most 255 characters.' })
  email?: string;
}
