import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiValidationFailed, CurrentPrincipal, type Principal, RequireScopes } from '../../src/plugins';
import { BlockedDomainsResponseDto, ReplaceBlockedDomainsDto } from './blocked-domains.dto';
import { BlockedDomainsRepository } from './blocked-domains.repository';

/** The store's blocked email domains: read and replaced as one list. */
@ApiTags('Blocked domains')
@Controller('v1/blocked-domains')
export class BlockedDomainsController {
  constructor(private readonly domains: BlockedDomainsRepository) {}

  @Get()
  @RequireScopes('blocked_domains.read')
  @ApiOperation({ summary: 'The email domains the store takes no orders from' })
  @ApiOkResponse({ type: BlockedDomainsResponseDto })
  async list(@CurrentPrincipal() principal: Principal): Promise<BlockedDomainsResponseDto> {
    return { status: 'success', domains: await this.domains.list(principal.storeId) };
  }

  @Put()
  @RequireScopes('blocked_domains.write')
  @ApiOperation({
    summary: 'Replace the blocked email domains; a new order whose customer email is at one of them is refused (422)',
  })
  @ApiOkResponse({ type: BlockedDomainsResponseDto })
  @ApiValidationFailed({ domains: ['domains must be domain names (example.com).'] })
  async replace(
    @CurrentPrincipal() principal: Principal,
    @Body() body: ReplaceBlockedDomainsDto,
  ): Promise<BlockedDomainsResponseDto> {
    return { status: 'success', domains: await this.domains.replace(principal.storeId, body.domains) };
  }
}
