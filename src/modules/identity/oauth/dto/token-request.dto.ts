import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';

/** Body of `POST /v1/oauth/token`, as JSON or form fields (the security schemes of the OpenAPI description). */
export class TokenRequestDto {
  @ApiPropertyOptional({
    enum: ['authorization_code', 'refresh_token'],
    example: 'authorization_code',
    description: 'Absent means authorization_code.',
  })
  @IsOptional()
  @IsString()
  grant_type?: string;

  @ApiPropertyOptional({ example: 'q3VxT0mZc1...' })
  @IsOptional()
  @IsString()
  code?: string;

  @ApiPropertyOptional({ example: 'Xy3k9Qp2LmN8vB4cD6fG1hJ5kL7mN9pQ', description: 'Or HTTP Basic.' })
  @IsOptional()
  @IsString()
  client_id?: string;

  @ApiPropertyOptional({ example: 'cs_9d8F7g6H5j4K3l2M1n0P9o8I7u6Y5t4R3e2W1q0A', description: 'Or HTTP Basic.' })
  @IsOptional()
  @IsString()
  client_secret?: string;

  @ApiPropertyOptional({ example: 'https://app.example.com/callback' })
  @IsOptional()
  @IsString()
  redirect_uri?: string;

  @ApiPropertyOptional({ example: 'af0ifjsldkj' })
  @IsOptional()
  @IsString()
  state?: string;

  @ApiPropertyOptional({
    example: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
    description: 'PKCE (RFC 7636), when the authorization used it.',
  })
  @IsOptional()
  @IsString()
  code_verifier?: string;

  @ApiPropertyOptional({
    example: 'rt_Ab3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5oQ7s',
    description: 'For grant_type=refresh_token.',
  })
  @IsOptional()
  @IsString()
  refresh_token?: string;
}

/** Body of `POST /v1/oauth/revoke` (RFC 7009). */
export class RevokeRequestDto {
  @ApiPropertyOptional({ example: 'at_Ab3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5oQ7s' })
  @IsOptional()
  @IsString()
  token?: string;

  @ApiPropertyOptional({ enum: ['access_token', 'refresh_token'], example: 'refresh_token' })
  @IsOptional()
  @IsString()
  token_type_hint?: string;

  @ApiPropertyOptional({ example: 'Xy3k9Qp2LmN8vB4cD6fG1hJ5kL7mN9pQ' })
  @IsOptional()
  @IsString()
  client_id?: string;

  @ApiPropertyOptional({ example: 'cs_9d8F7g6H5j4K3l2M1n0P9o8I7u6Y5t4R3e2W1q0A' })
  @IsOptional()
  @IsString()
  client_secret?: string;
}
