import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiConflict, ApiNotFound, ApiRefParam, ApiValidationFailed } from '../../common/http/api-docs';
import { ActiveStatusPageQueryDto, pageRequest, paginated } from '../../common/pagination/pagination';
import { CurrentPrincipal, type Principal, RequireScopes } from '../identity';
import { toDiscountDto } from './discount.mapper';
import { DUPLICATE_CODE_MESSAGE } from './discounts.repository';
import { DiscountsService } from './discounts.service';
import { CreateDiscountDto } from './dto/create-discount.dto';
import {
  DiscountCreatedResponseDto,
  DiscountDeletedResponseDto,
  DiscountListResponseDto,
  DiscountResponseDto,
  DiscountUpdatedResponseDto,
} from './dto/discount-response.dto';
import { UpdateDiscountDto } from './dto/update-discount.dto';
import { Idempotent } from '../../common/idempotency/idempotent.decorator';
import { ResourceFirst } from '../../common/http/resource-first';

const RefParam = () =>
  ApiRefParam('The numeric id of the discount, or its code (any case).', { id: '7', code: 'SAVE10' });
const NotFound = () => ApiNotFound('No discount with this id or code in the store (another store’s discount too).');
const Duplicate = () =>
  ApiConflict(DUPLICATE_CODE_MESSAGE, 'The store already has a discount with this code (ignoring case).');

@ApiTags('Discounts')
@Controller('v1/discounts')
export class DiscountsController {
  constructor(private readonly discounts: DiscountsService) {}

  @Post()
  @Idempotent()
  @RequireScopes('discounts.write')
  @ApiOperation({ summary: 'Create a discount (coupon code)' })
  @ApiBody({
    type: CreateDiscountDto,
    examples: {
      percent: {
        value: { code: 'SAVE10', type: 'percent', value: 10, uses_limit: 100, expires_at: '2026-12-31T23:59:59Z' },
      },
      fixed: {
        value: { code: 'MINUS50', type: 'amount', value: 50, product_ids: [12], single_use: true, status: 'enabled' },
      },
    },
  })
  @ApiCreatedResponse({ type: DiscountCreatedResponseDto })
  @Duplicate()
  @ApiValidationFailed({ value: ['value must be at least 0.01.'], expires_at: ['expires_at must be in the future.'] })
  async create(
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateDiscountDto,
  ): Promise<DiscountCreatedResponseDto> {
    const discount = await this.discounts.create(principal.storeId, body);
    return { status: 'success', message: 'Discount created successfully.', discount: toDiscountDto(discount) };
  }

  @Get()
  @RequireScopes('discounts.read')
  @ApiOperation({ summary: 'List the store’s discounts, newest first; `status` keeps those of one status' })
  @ApiOkResponse({ type: DiscountListResponseDto })
  @ApiValidationFailed({ status: ['status must be active or inactive.'] })
  async list(
    @CurrentPrincipal() principal: Principal,
    @Query() query: ActiveStatusPageQueryDto,
  ): Promise<DiscountListResponseDto> {
    const page = pageRequest(query);
    const [discounts, total] = await this.discounts.list(principal.storeId, page, query.status);
    return paginated('discounts', discounts.map(toDiscountDto), total, page);
  }

  @Get(':id')
  @RequireScopes('discounts.read')
  @ApiOperation({ summary: 'Get a discount by id or code' })
  @RefParam()
  @ApiOkResponse({ type: DiscountResponseDto })
  @NotFound()
  async get(@CurrentPrincipal() principal: Principal, @Param('id') ref: string): Promise<DiscountResponseDto> {
    return { status: 'success', discount: toDiscountDto(await this.discounts.get(principal.storeId, ref)) };
  }

  @Patch(':id')
  @ResourceFirst(DiscountsService, (discounts, storeId, ref) => discounts.get(storeId, ref))
  @RequireScopes('discounts.write')
  @ApiOperation({ summary: 'Change a discount; only the fields sent change' })
  @RefParam()
  @ApiBody({
    type: UpdateDiscountDto,
    examples: {
      disable: { value: { status: 'disabled' } },
      expire: { value: { expires_at: '2027-01-31T23:59:59Z' } },
      neverExpire: { value: { never_expires: true } },
    },
  })
  @ApiOkResponse({ type: DiscountUpdatedResponseDto })
  @NotFound()
  @Duplicate()
  @ApiValidationFailed({ uses_limit: ['uses_limit cannot be lower than used_count (3).'] })
  async update(
    @CurrentPrincipal() principal: Principal,
    @Param('id') ref: string,
    @Body() body: UpdateDiscountDto,
  ): Promise<DiscountUpdatedResponseDto> {
    const discount = await this.discounts.update(principal.storeId, ref, body);
    return { status: 'success', message: 'Discount updated successfully.', discount: toDiscountDto(discount) };
  }

  @Delete(':id')
  @HttpCode(200)
  @RequireScopes('discounts.write')
  @ApiOperation({ summary: 'Delete a discount by id or code' })
  @RefParam()
  @ApiOkResponse({ type: DiscountDeletedResponseDto })
  @NotFound()
  async delete(
    @CurrentPrincipal() principal: Principal,
    @Param('id') ref: string,
  ): Promise<DiscountDeletedResponseDto> {
    const data = await this.discounts.delete(principal.storeId, ref);
    return { status: 'success', message: 'Discount deleted successfully.', data };
  }
}
