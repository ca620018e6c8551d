import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiValidationFailed } from '../../../common/http/api-docs';
import { centsToNumber } from '../../../common/money';
import { CurrentPrincipal, type Principal, RequireScopes } from '../../identity';
import { SalesReportDto, SalesReportEnvelopeDto, SalesReportQueryDto } from './dto/sales-report.dto';
import { SalesReport, SalesReportService } from './sales-report.service';

@ApiTags('Reports')
@Controller('v1/reports')
export class ReportsController {
  constructor(private readonly reports: SalesReportService) {}

  @Get('sales')
  @RequireScopes('orders.read')
  @ApiOperation({
    summary: 'Sales per UTC day: gross, refunds, paid orders, subscriptions and MRR (default the last 30 days)',
  })
  @ApiOkResponse({ type: SalesReportEnvelopeDto })
  @ApiValidationFailed({ from: ['from must be a date in the form YYYY-MM-DD.'] })
  async sales(
    @CurrentPrincipal() principal: Principal,
    @Query() query: SalesReportQueryDto,
  ): Promise<SalesReportEnvelopeDto> {
    return { status: 'success', report: toSalesReportDto(await this.reports.report(principal.storeId, query)) };
  }
}

export function toSalesReportDto(report: SalesReport): SalesReportDto {
  return {
    currency: report.currency,
    from: report.from,
    to: report.to,
    gross: centsToNumber(report.gross),
    refunded: centsToNumber(report.refunded),
    net: centsToNumber(report.gross - report.refunded),
    orders_paid: report.ordersPaid,
    orders_refunded: report.ordersRefunded,
    new_subscriptions: report.newSubscriptions,
    active_subscriptions: report.activeSubscriptions,
    mrr: centsToNumber(report.mrr),
    days: report.days.map((day) => ({
      date: day.date,
      gross: centsToNumber(day.gross),
      refunded: centsToNumber(day.refunded),
      orders_paid: day.ordersPaid,
    })),
  };
}
