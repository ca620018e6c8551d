import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ApiTimestamp } from '../../../../common/http/api-docs';
import { IsNotEmpty, IsOptional, IsString, IsUrl, MaxLength } from 'class-validator';
import { Trim } from '../../../../common/http/transforms';

/**
 * Body of `POST /v1/products/{id}/files`: a multipart upload (field `file`, optional `name`), or
 * JSON `{name, link}` for a file the seller hosts elsewhere.
 */
export class CreateProductFileDto {
  @ApiPropertyOptional({
    example: 'Guia completo.pdf',
    maxLength: 200,
    description: 'Display name. Required with `link`; for uploads it defaults to the uploaded file name.',
  })
  @IsOptional()
  @Trim()
  @IsString({ message: 'name must be a string.' })
  @IsNotEmpty({ message: 'name must not be empty.' })
  @MaxLength(200, { message: 'name must be at most 200 characters.' })
  name?: string;

  @ApiPropertyOptional({ example: 'https://drive.example.com/guia.pdf', description: 'External link (JSON form).' })
  @IsOptional()
  @Trim()
  @IsUrl(
    { protocols: ['http', 'https'], require_protocol: true, require_tld: false },
    { message: 'link must be an http(s) URL.' },
  )
  @MaxLength(2048, { message: 'link must be at most 2048 characters.' })
  link?: string;

  @ApiPropertyOptional({ type: 'string', format: 'binary', description: 'The file (multipart form).' })
  file?: unknown;
}

/** The product file of the OpenAPI description. */
export class ProductFileDto {
  @ApiProperty({ type: 'integer', example: 7 }) id: number;
  @ApiProperty({ example: 'Guia completo.pdf' }) name: string;
  @ApiProperty({ example: 'http://localhost:3000/cdn/3fK9aQ2mZ8xW1pL7nB4vC6tR0yH5sD2e/Guia%20completo.pdf' })
  link: string;
  @ApiProperty({ example: 2.45, description: 'Megabytes (bytes / 1,048,576) with two decimals; 0 for links.' })
  size: number;
  @ApiProperty({ example: 'pdf', description: 'File extension, or `link`.' }) format: string;
  @ApiProperty({ example: 'MB' }) format_type: 'MB';
  @ApiTimestamp({ example: '2025-01-31T12:00:00.000000Z' }) created_at: string;
}

export class ProductFileCreatedResponseDto {
  @ApiProperty({ example: 'success' }) status: 'success';
  @ApiProperty({ example: 'File added successfully.' }) message: string;
  @ApiProperty({ type: ProductFileDto }) file: ProductFileDto;
}

export class ProductFileListResponseDto {
  @ApiProperty({ example: 'success' }) status: 'success';
  @ApiProperty({ type: [ProductFileDto] }) files: ProductFileDto[];
}

class ProductFileDeletedDataDto {
  @ApiProperty({ example: 'prod_4fQ9xZ2LmN8pR1sT' }) product_pid: string;
  @ApiProperty({ type: 'integer', example: 7 }) file_id: number;
}

export class ProductFileDeletedResponseDto {
  @ApiProperty({ example: 'success' }) status: 'success';
  @ApiProperty({ example: 'File deleted successfully.' }) message: string;
  @ApiProperty({ type: ProductFileDeletedDataDto }) data: ProductFileDeletedDataDto;
}
