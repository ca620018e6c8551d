import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ApiTimestamp } from '../../../../common/http/api-docs';
import { ErrorResponseDto } from '../../../../common/http/error-response.dto';

/** The OAuth token response of the OpenAPI description plus `scope` (the security schemes of the OpenAPI description). */
export class TokenResponseDto {
  @ApiProperty({ example: 'at_Ab3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5oQ7s' }) access_token: string;
  @ApiProperty({ example: 'rt_Zy8xW6vU4tS2rQ0pO8nM6lK4jI2hG0fE8dC6bA4z' }) refresh_token: string;
  @ApiProperty({ example: 'Bearer', enum: ['Bearer'] }) token_type: 'Bearer';
  @ApiProperty({ type: 'integer', example: 2592000, description: 'Seconds (30 days).' }) expires_in: number;
  @ApiTimestamp({ example: '2026-02-01T12:00:00.000000Z' }) expires_at: string;
  @ApiProperty({ example: ['orders.read', 'orders.write'], description: 'Scopes actually granted.' })
  permissions: string[];
  @ApiProperty({ example: 'orders.read orders.write', description: 'The same scopes, space-separated.' }) scope: string;
}

export class OAuthErrorResponseDto extends ErrorResponseDto {
  @ApiProperty({ example: 'Invalid or expired code' })
  declare message: string;

  @ApiProperty({
    example: 'invalid_grant',
    enum: ['invalid_client', 'invalid_grant', 'invalid_request', 'unsupported_grant_type'],
  })
  error: string;

  @ApiProperty({ example: 'Invalid or expired code' })
  error_description: string;

  @ApiPropertyOptional({
    description: 'With `invalid_request` for fields of the wrong form: the messages by field.',
    example: { code: ['code must be a string.'] },
    additionalProperties: { type: 'array', items: { type: 'string' } },
  })
  errors?: Record<string, string[]>;
}

export class RevokeResponseDto {
  @ApiProperty({ example: 'success' }) status: 'success';
}
