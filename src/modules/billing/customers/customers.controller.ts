import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiIdParam, ApiNotFound, ApiValidationFailed } from '../../../common/http/api-docs';
import { paginated, pageRequest } from '../../../common/pagination/pagination';
import { CurrentPrincipal, type Principal, RequireScopes } from '../../identity';
import { CustomerOrdersQueryDto, OrderSummaryListDto } from '../orders/dto/order-response.dto';
import { toOrderSummary } from '../orders/order.mapper';
import { toCustomerDto } from './customer.mapper';
import { CustomersService } from './customers.service';
import { CustomerEnvelopeDto, CustomerListDto, ListCustomersQueryDto } from './dto/customer.dto';

@ApiTags('Customers')
@Controller('v1/customers')
export class CustomersController {
  constructor(private readonly customers: CustomersService) {}

  @Get()
  @RequireScopes('customers.read')
  @ApiOperation({ summary: "List the store's customers, newest first" })
  @ApiOkResponse({ type: CustomerListDto })
  @ApiValidationFailed()
  async list(
    @CurrentPrincipal() principal: Principal,
    @Query() query: ListCustomersQueryDto,
  ): Promise<CustomerListDto> {
    const page = pageRequest(query);
    const [customers, total] = await this.customers.list(principal.storeId, query.email, page);
    return paginated('customers', customers.map(toCustomerDto), total, page);
  }

  @Get(':id')
  @RequireScopes('customers.read')
  @ApiOperation({ summary: 'Get a customer' })
  @ApiIdParam('id', 'Customer id.')
  @ApiOkResponse({ type: CustomerEnvelopeDto })
  @ApiNotFound('`Resource not found.`')
  async get(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<CustomerEnvelopeDto> {
    return { status: 'success', customer: toCustomerDto(await this.customers.get(principal.storeId, id)) };
  }

  @Get(':id/orders')
  @RequireScopes('customers.read')
  @ApiOperation({ summary: "The customer's orders, newest first" })
  @ApiIdParam('id', 'Customer id.')
  @ApiOkResponse({ type: OrderSummaryListDto })
  @ApiNotFound('`No orders found for this customer.`', 'No orders found for this customer.')
  @ApiValidationFailed()
  async orders(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Query() query: CustomerOrdersQueryDto,
  ): Promise<OrderSummaryListDto> {
    const page = pageRequest(query);
    const [orders, total] = await this.customers.orders(principal.storeId, id, query.status, page);
    return paginated('orders', orders.map(toOrderSummary), total, page);
  }
}
