import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiNotFound, ApiValidationFailed } from '../../../common/http/api-docs';
import { Idempotent } from '../../../common/idempotency/idempotent.decorator';
import { pageRequest, paginated } from '../../../common/pagination/pagination';
import { CurrentPrincipal, type Principal, RequireScopes } from '../../identity';
import { ApiResponse } from '@nestjs/swagger';
import { ErrorResponseDto } from '../../../common/http/error-response.dto';
import { LicenseChangedDto, LicenseEnvelopeDto, LicenseListDto, ListLicensesQueryDto } from './dto/license.dto';
import { LicensesService } from './licenses.service';
import { requireIntId } from '../../../common/http/path-id';

const ApiLicenseId = () =>
  ApiParam({ name: 'id', description: 'License key id.', example: 41, schema: { type: 'integer' } });

/** The seller's license keys. */
@ApiTags('Licenses')
@Controller('v1/licenses')
export class LicensesController {
  constructor(private readonly licenses: LicensesService) {}

  @Get()
  @RequireScopes('licenses.read')
  @ApiOperation({ summary: "List the store's license keys, newest first" })
  @ApiOkResponse({ type: LicenseListDto })
  @ApiValidationFailed()
  async list(@CurrentPrincipal() principal: Principal, @Query() query: ListLicensesQueryDto): Promise<LicenseListDto> {
    const page = pageRequest(query);
    const [views, total] = await this.licenses.list(
      principal.storeId,
      { product: query.product, order: query.order, status: query.status },
      page,
    );
    return paginated('licenses', views, total, page);
  }

  @Get(':id')
  @RequireScopes('licenses.read')
  @ApiOperation({ summary: 'Get a license key with its activated instances' })
  @ApiLicenseId()
  @ApiOkResponse({ type: LicenseEnvelopeDto })
  @ApiNotFound()
  async get(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<LicenseEnvelopeDto> {
    return { status: 'success', license: await this.licenses.get(principal.storeId, requireIntId(id)) };
  }

  @Post(':id/disable')
  @Idempotent()
  @HttpCode(200)
  @RequireScopes('licenses.write')
  @ApiOperation({ summary: 'Disable a license key: it no longer validates or activates' })
  @ApiLicenseId()
  @ApiOkResponse({ type: LicenseChangedDto })
  @ApiNotFound()
  @ApiResponse({
    status: 422,
    description: '`An expired license key cannot be disabled.` — its subscription ended; it validates as expired.',
    type: ErrorResponseDto,
    example: { status: 'error', message: 'An expired license key cannot be disabled.' },
  })
  async disable(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<LicenseChangedDto> {
    const license = await this.licenses.setEnabled(principal.storeId, requireIntId(id), false);
    return { status: 'success', message: 'License key disabled.', license: license };
  }

  @Post(':id/enable')
  @Idempotent()
  @HttpCode(200)
  @RequireScopes('licenses.write')
  @ApiOperation({ summary: 'Enable a disabled license key again' })
  @ApiLicenseId()
  @ApiOkResponse({ type: LicenseChangedDto })
  @ApiNotFound()
  @ApiResponse({
    status: 422,
    description: '`An expired license key cannot be enabled.` — its subscription ended.',
    type: ErrorResponseDto,
    example: { status: 'error', message: 'An expired license key cannot be enabled.' },
  })
  async enable(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<LicenseChangedDto> {
    const license = await this.licenses.setEnabled(principal.storeId, requireIntId(id), true);
    return { status: 'success', message: 'License key enabled.', license: license };
  }
}
