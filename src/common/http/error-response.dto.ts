import { ApiProperty } from '@nestjs/swagger';

/** The error body (the OpenAPI description), for OpenAPI. */
export class ErrorResponseDto {
  @ApiProperty({ example: 'error', enum: ['error'] })
  status: 'error';

  @ApiProperty({ example: 'Resource not found.' })
  message: string;
}

export class ValidationErrorResponseDto extends ErrorResponseDto {
  @ApiProperty({ example: 'Validation failed.' })
  declare message: string;

  @ApiProperty({
    example: { 'customer.email': ['customer.email must be a valid email address.'] },
    additionalProperties: { type: 'array', items: { type: 'string' } },
  })
  errors: Record<string, string[]>;
}

export class ForbiddenResponseDto extends ErrorResponseDto {
  @ApiProperty({ example: 'Permission denied for this endpoint.' })
  declare message: string;

  @ApiProperty({ example: 'insufficient_scope' })
  error_code: string;

  @ApiProperty({ example: ['orders.write'] })
  required_scopes: string[];

  @ApiProperty({ example: ['orders.write'] })
  missing_scopes: string[];

  @ApiProperty({ example: ['orders.read'] })
  granted_scopes: string[];
}

export class MissingFieldsResponseDto extends ErrorResponseDto {
  @ApiProperty({ example: 'Product is missing required data.' })
  declare message: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'Field name → what is missing.',
    example: { image: 'The product needs an image.', files: 'The product needs at least one file.' },
  })
  missing_fields: Record<string, string>;
}
