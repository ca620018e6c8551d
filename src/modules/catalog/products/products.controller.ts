import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { ApiConflict, ApiValidationFailed } from '../../../common/http/api-docs';
import { MissingFieldsResponseDto } from '../../../common/http/error-response.dto';
import { PaginationQueryDto, pageRequest, paginated } from '../../../common/pagination/pagination';
import { CurrentPrincipal, type Principal, RequireScopes } from '../../identity';
import { ApiCatalogId } from '../catalog-api.decorators';
import {
  CreateProductDto,
  ProductCreatedResponseDto,
  ProductDeletedResponseDto,
  ProductListResponseDto,
  ProductResponseDto,
  ProductUpdatedResponseDto,
  PublishResponseDto,
  UpdateProductDto,
} from './dto/product.dto';
import { toProductDto } from './product.mapper';
import { ProductsService } from './products.service';
import { Idempotent } from '../../../common/idempotency/idempotent.decorator';
import { PRODUCT_HAS_SALES } from '../deletion-events';
import { ResourceFirst } from '../../../common/http/resource-first';

@ApiTags('Products')
@Controller('v1/products')
export class ProductsController {
  constructor(private readonly products: ProductsService) {}

  @Post()
  @Idempotent()
  @RequireScopes('products.write')
  @ApiOperation({ summary: 'Create a product (only `name` is required)' })
  @ApiCreatedResponse({ type: ProductCreatedResponseDto })
  @ApiValidationFailed()
  async create(
    @CurrentPrincipal() principal: Principal,
    @Body() dto: CreateProductDto,
  ): Promise<ProductCreatedResponseDto> {
    const [product, currency] = await Promise.all([
      this.products.create(principal.storeId, dto),
      this.products.currencyOf(principal.storeId),
    ]);
    return { status: 'success', message: 'Product created successfully.', product: toProductDto(product, currency) };
  }

  @Get()
  @RequireScopes('products.read')
  @ApiOperation({ summary: "List the store's products, newest first" })
  @ApiOkResponse({ type: ProductListResponseDto })
  @ApiValidationFailed()
  async list(
    @CurrentPrincipal() principal: Principal,
    @Query() query: PaginationQueryDto,
  ): Promise<ProductListResponseDto> {
    const page = pageRequest(query);
    const [[products, total], currency] = await Promise.all([
      this.products.list(principal.storeId, page),
      this.products.currencyOf(principal.storeId),
    ]);
    return paginated(
      'products',
      products.map((p) => toProductDto(p, currency)),
      total,
      page,
    );
  }

  @Get(':id')
  @RequireScopes('products.read')
  @ApiOperation({ summary: 'Get a product by `id` or `product_pid`' })
  @ApiCatalogId('product')
  @ApiOkResponse({ type: ProductResponseDto })
  async get(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<ProductResponseDto> {
    const [product, currency] = await Promise.all([
      this.products.get(principal.storeId, id),
      this.products.currencyOf(principal.storeId),
    ]);
    return { status: 'success', product: toProductDto(product, currency) };
  }

  @Patch(':id')
  @ResourceFirst(ProductsService, (products, storeId, ref) => products.findForStore(storeId, ref))
  @RequireScopes('products.write')
  @ApiOperation({ summary: 'Update a product; `null` clears an optional field' })
  @ApiCatalogId('product')
  @ApiOkResponse({ type: ProductUpdatedResponseDto })
  @ApiValidationFailed()
  async update(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Body() dto: UpdateProductDto,
  ): Promise<ProductUpdatedResponseDto> {
    const [product, currency] = await Promise.all([
      this.products.update(principal.storeId, id, dto),
      this.products.currencyOf(principal.storeId),
    ]);
    return { status: 'success', message: 'Product updated successfully.', product: toProductDto(product, currency) };
  }

  @Delete(':id')
  @RequireScopes('products.write')
  @ApiOperation({
    summary: 'Delete a product with its files and plans (not when it has sales)',
    description:
      'Its files, plans and order bumps (offered by it or offering it) are deleted and its id leaves the ' +
      '`product_ids` of every discount, in the same transaction; a discount left with no products becomes ' +
      '`inactive` (an empty `product_ids` means every product). The webhooks limited to it are deleted right after.',
  })
  @ApiCatalogId('product')
  @ApiOkResponse({ type: ProductDeletedResponseDto })
  @ApiConflict(
    PRODUCT_HAS_SALES,
    'The product has approved or refunded sales (`This product has one or more sales and cannot be deleted.`), or one of ' +
      'its open checkouts is being paid (`A payment is already in progress.`). Its pending orders stay pending; their ' +
      'checkout links answer 404.',
  )
  async delete(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<ProductDeletedResponseDto> {
    const product = await this.products.delete(principal.storeId, id);
    return {
      status: 'success',
      message: 'Product deleted successfully.',
      data: { id: product.id, product_pid: product.pid },
    };
  }

  @Post(':id/publish')
  @Idempotent()
  @HttpCode(200)
  @RequireScopes('products.write')
  @ApiOperation({
    summary: 'Submit the product for review',
    description:
      'Requires name, price (at least 50 in MZN stores), sale page, image, category, subcategory, ' +
      'contact number, at least one file and, for recurring products, a plan. `status_2` becomes `pending`.',
  })
  @ApiCatalogId('product')
  @ApiOkResponse({ type: PublishResponseDto })
  @ApiConflict('Product is already in review.', 'Already submitted (pending or approved).')
  @ApiUnprocessableEntityResponse({
    description: 'Requirements not met: `missing_fields` names each one.',
    type: MissingFieldsResponseDto,
    example: {
      status: 'error',
      message: 'Product is missing required data.',
      missing_fields: {
        image: 'The product needs an image (image_url).',
        files: 'The product needs at least one file.',
      },
    },
  })
  async publish(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<PublishResponseDto> {
    const product = await this.products.publish(principal.storeId, id);
    return {
      status: 'success',
      message: 'Product submitted for review.',
      data: { product_id: product.id, product_pid: product.pid, status: 'pending' },
    };
  }
}
