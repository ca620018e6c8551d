import { Controller, Get, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Eta } from 'eta';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { join } from 'node:path';
import { formatTimestamp } from '../../../common/time';
import { Public } from '../../identity/auth/auth.decorators';
import { ViewsService } from '../../identity/web/views.service';
import { requireSeller } from '../../identity/web/web-auth';
import { CsrfGuard } from '../../identity/web/sessions/web-session.middleware';
import { WebExceptionFilter } from '../../identity/web/web-exception.filter';
import { WebhooksService } from '../webhooks.service';

/** Dashboard → Webhooks: every webhook with its recent deliveries (decisions §2.1, spec §6.1.7). */
@ApiExcludeController()
@Public()
@UseFilters(WebExceptionFilter)
@UseGuards(CsrfGuard)
@Controller('webhooks')
export class WebhooksReportController {
  private readonly eta = new Eta({ views: join(__dirname, 'views'), cache: true, autoEscape: true });

  constructor(
    private readonly webhooks: WebhooksService,
    private readonly views: ViewsService,
  ) {}

  @Get()
  async report(@Req() req: FastifyRequest, @Res() res: FastifyReply): Promise<void> {
    const { storeId } = requireSeller(req);
    const reports = await this.webhooks.deliveryReport(storeId);
    const body = this.eta.render('report', { reports, when: (d: Date) => formatTimestamp(d) });
    this.views.renderContent(req, res, 'Webhooks', body);
  }
}
