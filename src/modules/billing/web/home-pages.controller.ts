import { Get, Req, Res } from '@nestjs/common';
import { Eta } from 'eta';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { join } from 'node:path';
import { CurrentSeller, DashboardPages, money, type SellerSession, SellersService, ViewsService } from '../../identity';
import { toSalesReportDto } from '../reports/reports.controller';
import { SalesReportService } from '../reports/sales-report.service';
import { DashboardHomeService } from './home.service';
import { revenueChart } from './revenue-chart';

/**
 * The dashboard's home page: the last 30 days as `GET /v1/reports/sales` gives them (same service,
 * same mapper: the page and the API cannot disagree), a chart of paid revenue per day, and until
 * the store has made its first sale through its own integration, a getting-started checklist.
 */
@DashboardPages()
export class HomePagesController {
  private readonly eta = new Eta({ views: join(__dirname, 'views'), cache: true, autoEscape: true });

  constructor(
    private readonly reports: SalesReportService,
    private readonly home: DashboardHomeService,
    private readonly sellers: SellersService,
    private readonly views: ViewsService,
  ) {}

  @Get()
  async show(
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
    @CurrentSeller() { storeId }: SellerSession,
  ): Promise<void> {
    const [report, steps, store] = await Promise.all([
      this.reports.report(storeId, {}).then(toSalesReportDto),
      this.home.gettingStarted(storeId),
      this.sellers.findStore(storeId),
    ]);
    const format = (amount: number) => money(amount, report.currency);
    const body = this.eta.render('home', {
      ...this.views.locals(req),
      store,
      report,
      chart: revenueChart(report.days, report.to, format),
      steps,
      format,
    });
    this.views.renderContent(req, res, store?.name ?? 'Home', body);
  }
}
