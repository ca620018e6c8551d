import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiIdParam, ApiNotFound, ApiValidationFailed } from '../../common/http/api-docs';
import { pageRequest, paginated, PaginationQueryDto } from '../../common/pagination/pagination';
import { CurrentPrincipal, type Principal, RequireScopes } from '../identity';
import { toAffiliateDto } from './affiliate.mapper';
import { AffiliatesService } from './affiliates.service';
import { CreateAffiliateDto } from './dto/create-affiliate.dto';
import {
  AffiliateDeletedResponseDto,
  AffiliateListResponseDto,
  AffiliateResponseDto,
  CreateAffiliateResponseDto,
} from './dto/affiliate-response.dto';
import { Idempotent } from '../../common/idempotency/idempotent.decorator';

@ApiTags('Affiliates')
@Controller('v1/affiliates')
export class AffiliatesController {
  constructor(private readonly affiliates: AffiliatesService) {}

  @Post()
  @Idempotent()
  @RequireScopes('affiliates.write')
  @ApiOperation({ summary: 'Create an affiliate with a commission percent' })
  @ApiCreatedResponse({ type: CreateAffiliateResponseDto })
  @ApiValidationFailed({ commission_percent: ['commission_percent must be at most 100.'] })
  async create(
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateAffiliateDto,
  ): Promise<CreateAffiliateResponseDto> {
    const affiliate = await this.affiliates.create(principal.storeId, {
      name: body.name,
      email: body.email,
      commissionPercent: body.commission_percent,
    });
    return { status: 'success', message: 'Affiliate created.', affiliate: toAffiliateDto(affiliate) };
  }

  @Get()
  @RequireScopes('affiliates.read')
  @ApiOperation({ summary: "The store's affiliates, newest first" })
  @ApiOkResponse({ type: AffiliateListResponseDto })
  @ApiValidationFailed({ per_page: ['per_page must be at most 100.'] })
  async list(
    @CurrentPrincipal() principal: Principal,
    @Query() query: PaginationQueryDto,
  ): Promise<AffiliateListResponseDto> {
    const page = pageRequest(query);
    const [items, total] = await this.affiliates.list(principal.storeId, page);
    return paginated('affiliates', items.map(toAffiliateDto), total, page);
  }

  @Get(':id')
  @RequireScopes('affiliates.read')
  @ApiOperation({ summary: 'One affiliate' })
  @ApiIdParam('id', 'Affiliate id.')
  @ApiOkResponse({ type: AffiliateResponseDto })
  @ApiNotFound('No affiliate with this id in the store.')
  async get(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<AffiliateResponseDto> {
    return { status: 'success', affiliate: toAffiliateDto(await this.affiliates.get(principal.storeId, id)) };
  }

  @Delete(':id')
  @HttpCode(200)
  @RequireScopes('affiliates.write')
  @ApiOperation({ summary: 'Delete an affiliate; orders keep their commission' })
  @ApiIdParam('id', 'Affiliate id.')
  @ApiOkResponse({ type: AffiliateDeletedResponseDto })
  @ApiNotFound('No affiliate with this id in the store.')
  async remove(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
  ): Promise<AffiliateDeletedResponseDto> {
    await this.affiliates.remove(principal.storeId, id);
    return { status: 'success', message: 'Affiliate deleted.' };
  }
}
