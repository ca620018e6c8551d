import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';

/**
 * Values of the right form for the request examples (what the service issues: a 43-character code,
 * `rt_`/`at_` tokens, a 32-character client id, a `cs_` secret). They name no real app, so "Try it out"
 * gets `401 Invalid credentials` until the reader puts in an app's credentials and a code of its own.
 */
export const OAUTH_EXAMPLE = {
  clientId: 'Xy3k9Qp2LmN8vB4cD6fG1hJ5kL7mN9pQ',
  clientSecret: 'cs_9d8F7g6H5j4K3l2M1n0P9o8I7u6Y5t4R3e2W1q0A',
  code: 'q3VxT0mZc1Rk8sLp2Nw4Yb6Hd9Fg5Jt7Ua0Ce3Mi6Oz',
  redirectUri: 'https://app.example.com/callback',
  state: 'af0ifjsldkj',
  accessToken: 'at_Ab3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5oQ7s',
  refreshToken: 'rt_Zy8xW6vU4tS2rQ0pO8nM6lK4jI2hG0fE8dC6bA4z',
} as const;

/** Body of `POST /v1/oauth/token`, as JSON or form fields (the security schemes of the OpenAPI description). */
export class TokenRequestDto {
  @ApiPropertyOptional({
    enum: ['authorization_code', 'refresh_token'],
    example: 'authorization_code',
    description: 'Absent means authorization_code.',
  })
  @IsOptional()
  @IsString({ message: 'grant_type must be a string.' })
  grant_type?: string;

  @ApiPropertyOptional({ example: OAUTH_EXAMPLE.code })
  @IsOptional()
  @IsString({ message: 'code must be a string.' })
  code?: string;

  @ApiPropertyOptional({ example: OAUTH_EXAMPLE.clientId, description: 'Or HTTP Basic.' })
  @IsOptional()
  @IsString({ message: 'client_id must be a string.' })
  client_id?: string;

  @ApiPropertyOptional({ example: OAUTH_EXAMPLE.clientSecret, description: 'Or HTTP Basic.' })
  @IsOptional()
  @IsString({ message: 'client_secret must be a string.' })
  client_secret?: string;

  @ApiPropertyOptional({ example: OAUTH_EXAMPLE.redirectUri })
  @IsOptional()
  @IsString({ message: 'redirect_uri must be a string.' })
  redirect_uri?: string;

  @ApiPropertyOptional({ example: OAUTH_EXAMPLE.state })
  @IsOptional()
  @IsString({ message: 'state must be a string.' })
  state?: string;

  @ApiPropertyOptional({
    example: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
    description: 'PKCE (RFC 7636), when the authorization used it.',
  })
  @IsOptional()
  @IsString({ message: 'code_verifier must be a string.' })
  code_verifier?: string;

  @ApiPropertyOptional({
    example: OAUTH_EXAMPLE.refreshToken,
    description: 'For grant_type=refresh_token.',
  })
  @IsOptional()
  @IsString({ message: 'refresh_token must be a string.' })
  refresh_token?: string;
}

/** Body of `POST /v1/oauth/revoke` (RFC 7009). */
export class RevokeRequestDto {
  @ApiPropertyOptional({ example: OAUTH_EXAMPLE.accessToken })
  @IsOptional()
  @IsString({ message: 'token must be a string.' })
  token?: string;

  @ApiPropertyOptional({ enum: ['access_token', 'refresh_token'], example: 'refresh_token' })
  @IsOptional()
  @IsString({ message: 'token_type_hint must be a string.' })
  token_type_hint?: string;

  @ApiPropertyOptional({ example: OAUTH_EXAMPLE.clientId, description: 'Or HTTP Basic.' })
  @IsOptional()
  @IsString({ message: 'client_id must be a string.' })
  client_id?: string;

  @ApiPropertyOptional({ example: OAUTH_EXAMPLE.clientSecret, description: 'Or HTTP Basic.' })
  @IsOptional()
  @IsString({ message: 'client_secret must be a string.' })
  client_secret?: string;
}
