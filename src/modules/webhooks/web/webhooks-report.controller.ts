import { Controller, Get, Req, Res, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Eta } from 'eta';
import type { Request, Response } from 'express';
import { join } from 'node:path';
import { formatTimestamp } from '../../../common/time';
import { Public } from '../../identity/auth/auth.decorators';
import { ViewsService } from '../../identity/web/views.service';
import { requireSeller } from '../../identity/web/web-auth';
import { WebExceptionFilter } from '../../identity/web/web-exception.filter';
import { WebhooksService } from '../webhooks.service';

/** Dashboard → Webhooks: every webhook with its recent deliveries (decisions §2.1, spec §6.1.7). */
@ApiExcludeController()
@Public()
@UseFilters(WebExceptionFilter)
@Controller('webhooks')
export class WebhooksReportController {
  private readonly eta = new Eta({ views: join(__dirname, 'views'), cache: true, autoEscape: true });

  constructor(
    private readonly webhooks: WebhooksService,
    private readonly views: ViewsService,
  ) {}

  @Get()
  async report(@Req() req: Request, @Res() res: Response): Promise<void> {
    const { storeId } = requireSeller(req);
    const reports = await this.webhooks.deliveryReport(storeId);
    const body = this.eta.render('report', { reports, when: (d: Date) => formatTimestamp(d) });
    this.views.renderContent(req, res, 'Webhooks', body);
  }
}
