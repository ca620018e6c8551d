import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AnyToken, CurrentPrincipal } from '../auth/auth.decorators';
import type { Principal } from '../auth/principal';
import { ScopesResponseDto } from './scopes-response.dto';
import { ScopesService } from './scopes.service';

@ApiTags('OAuth')
@Controller('v1/scopes')
export class ScopesController {
  constructor(private readonly scopes: ScopesService) {}

  @Get()
  @AnyToken()
  @ApiOperation({ summary: 'Every scope, the endpoints it unlocks, and the scopes of the calling token' })
  @ApiOkResponse({ type: ScopesResponseDto })
  list(@CurrentPrincipal() principal: Principal): ScopesResponseDto {
    return this.scopes.describe(principal);
  }
}
