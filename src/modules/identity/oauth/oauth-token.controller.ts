import { applyDecorators, Body, Controller, Headers, HttpCode, Post, Type, UseInterceptors } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnauthorizedResponse,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { AcceptsBody, OAuthErrorBodies } from '../../../common/http/body-types';
import { Public } from '../auth/auth.decorators';
import { basicCredentials } from './client-credentials';
import { OAUTH_EXAMPLE, RevokeRequestDto, TokenRequestDto } from './dto/token-request.dto';
import { OAuthErrorResponseDto, RevokeResponseDto, TokenResponseDto } from './dto/token-response.dto';
import { OAuthResponseInterceptor } from './no-store.interceptor';
import { OAuthTokensService } from './oauth-tokens.service';

const credentials = { client_id: OAUTH_EXAMPLE.clientId, client_secret: OAUTH_EXAMPLE.clientSecret };

/**
 * What the token and revocation endpoints share in the OpenAPI description: a JSON or form body
 * with runnable examples, and the client's authentication. HTTP Basic is one of two ways to send the
 * client credentials (the body is the other, identity's README, *OAuth*), so the `authorization`
 * header that Nest would document as required from `@Headers()` is optional here: Swagger UI's
 * "Try it out" sends the body example without it.
 */
const ApiClientRequest = (type: Type<unknown>, examples: Record<string, { summary: string; value: object }>) =>
  applyDecorators(
    AcceptsBody('application/json', 'application/x-www-form-urlencoded'),
    OAuthErrorBodies(),
    ApiBody({ type, examples }),
    ApiHeader({
      name: 'authorization',
      required: false,
      description:
        'HTTP Basic client authentication (RFC 6749 §2.3.1): `Basic base64(client_id:client_secret)`, each part ' +
        'form-urlencoded. Optional: without it, `client_id` and `client_secret` are read from the body.',
      schema: { type: 'string' },
    }),
    ApiUnauthorizedResponse({ type: OAuthErrorResponseDto, description: 'Invalid credentials (invalid_client).' }),
    ApiUnprocessableEntityResponse({
      type: OAuthErrorResponseDto,
      description:
        '`Validation failed.` — a field of the wrong form (a number, a repeated form field), with the RFC 6749 §5.2 ' +
        '`invalid_request` and the field messages in `error_description` (and by field in `errors`).',
      example: {
        status: 'error',
        message: 'Validation failed.',
        errors: { code: ['code must be a string.'] },
        error: 'invalid_request',
        error_description: 'code must be a string.',
      },
    }),
  );

@ApiTags('OAuth')
@Controller('v1/oauth')
@Public()
@UseInterceptors(OAuthResponseInterceptor)
export class OAuthTokenController {
  constructor(private readonly tokens: OAuthTokensService) {}

  @Post('token')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Exchange an authorization code, or rotate a refresh token (no bearer token)',
    description:
      'JSON or form body; client credentials in the body or HTTP Basic. Errors carry the RFC 6749 `error` code: ' +
      '401 `Invalid credentials`; 400 `Invalid or expired code`, `client_id mismatch`, `redirect_uri mismatch`, `Invalid state` ' +
      '(also for a request without `state` when the code was issued without a PKCE challenge).',
  })
  @ApiClientRequest(TokenRequestDto, {
    authorization_code: {
      summary: 'Exchange an authorization code',
      value: {
        grant_type: 'authorization_code',
        code: OAUTH_EXAMPLE.code,
        ...credentials,
        redirect_uri: OAUTH_EXAMPLE.redirectUri,
        state: OAUTH_EXAMPLE.state,
      },
    },
    refresh_token: {
      summary: 'Rotate a refresh token',
      value: { grant_type: 'refresh_token', refresh_token: OAUTH_EXAMPLE.refreshToken, ...credentials },
    },
  })
  @ApiOkResponse({ type: TokenResponseDto })
  @ApiBadRequestResponse({ type: OAuthErrorResponseDto })
  token(@Body() body: TokenRequestDto, @Headers('authorization') authorization?: string): Promise<TokenResponseDto> {
    return this.tokens.token({ ...body, ...basicCredentials(authorization) });
  }

  @Post('revoke')
  @HttpCode(200)
  @ApiOperation({ summary: 'Revoke an access or refresh token (RFC 7009); unknown tokens are answered 200 too' })
  @ApiClientRequest(RevokeRequestDto, {
    refresh_token: {
      summary: 'Revoke a refresh token and its grant',
      value: { token: OAUTH_EXAMPLE.refreshToken, token_type_hint: 'refresh_token', ...credentials },
    },
  })
  @ApiOkResponse({ type: RevokeResponseDto })
  async revoke(
    @Body() body: RevokeRequestDto,
    @Headers('authorization') authorization?: string,
  ): Promise<RevokeResponseDto> {
    await this.tokens.revoke({ ...body, ...basicCredentials(authorization) });
    return { status: 'success' };
  }
}
