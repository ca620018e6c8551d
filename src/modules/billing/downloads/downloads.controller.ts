import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiNotFound, ApiRefParam } from '../../../common/http/api-docs';
import { Idempotent } from '../../../common/idempotency/idempotent.decorator';
import { CurrentPrincipal, type Principal, RequireScopes } from '../../identity';
import { OrderDownloadsDto, OrderDownloadsResetDto } from './dto/downloads.dto';
import { DownloadsService } from './downloads.service';

const ApiOrderRef = () => ApiRefParam('Order id or order_number.', 'ORD-8K2M4Q7XPA3Z');

/** The seller's audit of an order's downloads. */
@ApiTags('Orders')
@Controller('v1/orders/:id/downloads')
export class DownloadsController {
  constructor(private readonly downloads: DownloadsService) {}

  @Get()
  @RequireScopes('orders.read')
  @ApiOperation({
    summary: "An order's downloads: per file, the count against DOWNLOAD_LIMIT and when and from where",
  })
  @ApiOrderRef()
  @ApiOkResponse({ type: OrderDownloadsDto })
  @ApiNotFound()
  async list(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<OrderDownloadsDto> {
    return { status: 'success', downloads: await this.downloads.audit(principal.storeId, id) };
  }

  @Post('reset')
  @Idempotent()
  @HttpCode(200)
  @RequireScopes('orders.write')
  @ApiOperation({ summary: "Set every download count of the order back to 0 (the buyer's links work again)" })
  @ApiOrderRef()
  @ApiOkResponse({ type: OrderDownloadsResetDto })
  @ApiNotFound()
  async reset(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<OrderDownloadsResetDto> {
    const downloads = await this.downloads.reset(principal.storeId, id);
    return { status: 'success', message: 'Download counts reset.', downloads };
  }
}
