import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiConflict, ApiIdParam, ApiNotFound, ApiValidationFailed } from '../../../common/http/api-docs';
import { pageRequest, paginated, PaginationQueryDto } from '../../../common/pagination/pagination';
import { CurrentPrincipal, type Principal, RequireScopes } from '../../identity';
import { ApiCatalogRef } from '../catalog-api.decorators';
import { CreateOrderBumpDto } from './dto/create-order-bump.dto';
import {
  CreateOrderBumpResponseDto,
  OrderBumpDeletedResponseDto,
  OrderBumpListResponseDto,
} from './dto/order-bump-response.dto';
import { toOrderBumpDto } from './order-bump.mapper';
import { OrderBumpsService } from './order-bumps.service';
import { Idempotent } from '../../../common/idempotency/idempotent.decorator';
import { ResourceFirst } from '../../../common/http/resource-first';
import { ProductsService } from '../products/products.service';

@ApiTags('Products')
@Controller('v1/products/:id/order-bumps')
export class OrderBumpsController {
  constructor(private readonly bumps: OrderBumpsService) {}

  @Post()
  @ResourceFirst(ProductsService, (products, storeId, ref) => products.findForStore(storeId, ref))
  @Idempotent()
  @RequireScopes('products.write')
  @ApiOperation({ summary: 'Offer another product of the store as an add-on at checkout, at a set price' })
  @ApiCatalogRef('product')
  @ApiCreatedResponse({ type: CreateOrderBumpResponseDto })
  @ApiNotFound('The product, or the product to offer, is not one of the store.')
  @ApiConflict('This product is already an order bump of the product.', 'The product already offers this bump.')
  @ApiValidationFailed({ product_id: ['A product cannot be an order bump of itself.'] })
  async create(
    @CurrentPrincipal() principal: Principal,
    @Param('id') productRef: string,
    @Body() body: CreateOrderBumpDto,
  ): Promise<CreateOrderBumpResponseDto> {
    const { product, bump } = await this.bumps.create(principal.storeId, productRef, {
      productId: body.product_id,
      productPid: body.product_pid,
      price: body.price,
    });
    return { status: 'success', message: 'Order bump created.', order_bump: toOrderBumpDto(bump, product.pid) };
  }

  @Get()
  @RequireScopes('products.read')
  @ApiOperation({
    summary: 'The order bumps a product offers, newest first, a page at a time (the checkout shows them as added)',
  })
  @ApiCatalogRef('product')
  @ApiOkResponse({ type: OrderBumpListResponseDto })
  @ApiNotFound('No product with this id or pid in the store.')
  @ApiValidationFailed()
  async list(
    @CurrentPrincipal() principal: Principal,
    @Param('id') productRef: string,
    @Query() query: PaginationQueryDto,
  ): Promise<OrderBumpListResponseDto> {
    const page = pageRequest(query);
    const { product, bumps, total } = await this.bumps.pageForProductRef(principal.storeId, productRef, page);
    return paginated(
      'order_bumps',
      bumps.map((bump) => toOrderBumpDto(bump, product.pid)),
      total,
      page,
    );
  }

  @Delete(':bump_id')
  @HttpCode(200)
  @RequireScopes('products.write')
  @ApiOperation({ summary: 'Stop offering an order bump; orders that took it keep it' })
  @ApiCatalogRef('product')
  @ApiIdParam('bump_id', 'Order bump id.', 3)
  @ApiOkResponse({ type: OrderBumpDeletedResponseDto })
  @ApiNotFound('No such product in the store, or no such bump on it.')
  async remove(
    @CurrentPrincipal() principal: Principal,
    @Param('id') productRef: string,
    @Param('bump_id') bumpId: string,
  ): Promise<OrderBumpDeletedResponseDto> {
    const { product, bumpId: id } = await this.bumps.remove(principal.storeId, productRef, bumpId);
    return { status: 'success', message: 'Order bump deleted.', data: { product_pid: product.pid, order_bump_id: id } };
  }
}
