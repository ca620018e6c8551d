import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiConflict, ApiNotFound, ApiRefParam, ApiValidationFailed } from '../../../common/http/api-docs';
import { paginated, pageRequest } from '../../../common/pagination/pagination';
import { CurrentPrincipal, type Principal, RequireScopes } from '../../identity';
import { CreateOrderDto, CreateOrderResponseDto } from './dto/create-order.dto';
// Registers the body's fast accept path with the validation pipe.
import './dto/create-order.fast-accept';
import { ListOrdersQueryDto, OrderEnvelopeDto, OrderListDto, RefundResponseDto } from './dto/order-response.dto';
import { toOrderDto } from './order.mapper';
import { LicensesService } from '../licenses/licenses.service';
import { OrdersService } from './orders.service';
import { Idempotent } from '../../../common/idempotency/idempotent.decorator';

const ApiOrderRef = () => ApiRefParam('Order id or order_number.', 'ORD-8K2M4Q7XPA3Z');

@ApiTags('Orders')
@Controller('v1/orders')
export class OrdersController {
  constructor(
    private readonly orders: OrdersService,
    private readonly licenses: LicensesService,
  ) {}

  @Post()
  @Idempotent()
  @RequireScopes('orders.write')
  @ApiOperation({ summary: 'Create a checkout session (or reuse a pending or cancelled order with from_order)' })
  @ApiCreatedResponse({ type: CreateOrderResponseDto })
  @ApiNotFound('`Product not found.`, `Plan not found.` or `Order not found.` (from_order).', 'Product not found.')
  @ApiConflict('Order cannot be reused.', '`Order cannot be reused.` — from_order is approved or refunded.')
  @ApiValidationFailed()
  async create(
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateOrderDto,
  ): Promise<CreateOrderResponseDto> {
    const session = await this.orders.create({ id: principal.storeId, currency: principal.currency }, body);
    return {
      status: 'success',
      success: true,
      message: session.reused ? 'Order reused successfully.' : 'Order created successfully.',
      checkout_url: session.checkoutUrl,
      order_number: session.order.orderNumber,
      pay_token: session.payToken,
    };
  }

  @Get()
  @RequireScopes('orders.read')
  @ApiOperation({ summary: "List the store's orders, newest first" })
  @ApiOkResponse({ type: OrderListDto })
  @ApiValidationFailed()
  async list(@CurrentPrincipal() principal: Principal, @Query() query: ListOrdersQueryDto): Promise<OrderListDto> {
    const page = pageRequest(query);
    const [views, total] = await this.orders.list(
      principal.storeId,
      { status: query.status, product: query.product, customerId: query.customer, email: query.email },
      page,
    );
    return paginated('orders', views.map(toOrderDto), total, page);
  }

  @Get(':id')
  @RequireScopes('orders.read')
  @ApiOperation({ summary: 'Get an order with its product, plan, customer, amounts, tracking and transaction' })
  @ApiOrderRef()
  @ApiOkResponse({ type: OrderEnvelopeDto })
  @ApiNotFound()
  async get(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<OrderEnvelopeDto> {
    const view = await this.orders.get(principal.storeId, id);
    const order = toOrderDto(view);
    // Added to the object, not spread into a copy: a spread and one more property gives every
    // answer a hidden class of its own (docs/performance.md, ninth round).
    order.license_keys = (view.licenseKeys ?? []).map((key) => this.licenses.view(key));
    return { status: 'success', order };
  }

  @Post(':id/refund')
  @Idempotent()
  @HttpCode(200)
  @RequireScopes('orders.write')
  @ApiOperation({ summary: 'Refund an approved order (sends order_refund)' })
  @ApiOrderRef()
  @ApiOkResponse({ type: RefundResponseDto })
  @ApiNotFound()
  @ApiConflict(
    'Only approved orders can be refunded.',
    '`Only approved orders can be refunded.` or `A refund is already in progress.`',
  )
  @ApiResponse({
    status: 502,
    description:
      '`Payment provider error.` — the gateway that took the payment refused the refund or could not be reached; nothing changed. ' +
      'With `provider_code: "unknown"` the gateway did not answer and may have refunded: the refund stays in progress (409) until ' +
      'reconciliation asks the gateway, within minutes, and either refunds the order (`order_refund`) or frees it to be tried again.',
    schema: {
      type: 'object',
      required: ['status', 'message', 'provider_code', 'provider_message'],
      properties: {
        status: { type: 'string', example: 'error' },
        message: { type: 'string', example: 'Payment provider error.' },
        provider_code: { type: 'string', example: 'INS-2001' },
        provider_message: { type: 'string', example: 'Initiator authentication error.' },
      },
    },
  })
  async refund(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<RefundResponseDto> {
    const view = await this.orders.refund(principal.storeId, id);
    return { status: 'success', message: 'Order refunded successfully.', order: toOrderDto(view) };
  }
}
