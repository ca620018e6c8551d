import { Body, Controller, Headers, HttpCode, Post, UseInterceptors } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConsumes,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { ApiValidationFailed } from '../../../common/http/api-docs';
import { Public } from '../auth/auth.decorators';
import { basicCredentials } from './client-credentials';
import { RevokeRequestDto, TokenRequestDto } from './dto/token-request.dto';
import { OAuthErrorResponseDto, RevokeResponseDto, TokenResponseDto } from './dto/token-response.dto';
import { OAuthResponseInterceptor } from './no-store.interceptor';
import { OAuthTokensService } from './oauth-tokens.service';

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
      '401 `Invalid credentials`; 400 `Invalid or expired code`, `client_id mismatch`, `redirect_uri mismatch`, `Invalid state`.',
  })
  @ApiConsumes('application/json', 'application/x-www-form-urlencoded')
  @ApiOkResponse({ type: TokenResponseDto })
  @ApiBadRequestResponse({ type: OAuthErrorResponseDto })
  @ApiUnauthorizedResponse({ type: OAuthErrorResponseDto, description: 'Invalid credentials (invalid_client).' })
  @ApiValidationFailed()
  token(@Body() body: TokenRequestDto, @Headers('authorization') authorization?: string): Promise<TokenResponseDto> {
    return this.tokens.token({ ...body, ...basicCredentials(authorization) });
  }

  @Post('revoke')
  @HttpCode(200)
  @ApiOperation({ summary: 'Revoke an access or refresh token (RFC 7009); unknown tokens are answered 200 too' })
  @ApiConsumes('application/json', 'application/x-www-form-urlencoded')
  @ApiOkResponse({ type: RevokeResponseDto })
  @ApiUnauthorizedResponse({ type: OAuthErrorResponseDto, description: 'Invalid credentials (invalid_client).' })
  async revoke(
    @Body() body: RevokeRequestDto,
    @Headers('authorization') authorization?: string,
  ): Promise<RevokeResponseDto> {
    await this.tokens.revoke({ ...body, ...basicCredentials(authorization) });
    return { status: 'success' };
  }
}
