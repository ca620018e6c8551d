import { Controller, Get, Req, Res, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Eta } from 'eta';
import type { Request, Response } from 'express';
import { join } from 'node:path';
import { Public } from '../../identity/auth/auth.decorators';
import { ViewsService } from '../../identity/web/views.service';
import { requireSeller } from '../../identity/web/web-auth';
import { WebExceptionFilter } from '../../identity/web/web-exception.filter';
import { toDeliveryDto, toWebhookDto } from '../webhooks.mapper';
import { WebhooksService } from '../webhooks.service';

/**
 * decisions §2.1 `GET {web_url}/webhooks`: each webhook with its recent deliveries (payload,
 * response code and body) — the per-attempt detail spec §6.1.7 keeps out of the API's summary.
 */
@ApiExcludeController()
@Public()
@UseFilters(WebExceptionFilter)
@Controller('webhooks')
export class WebhooksPagesController {
  private readonly eta = new Eta({ views: join(__dirname, 'views'), cache: true, autoEscape: true });

  constructor(
    private readonly webhooks: WebhooksService,
    private readonly views: ViewsService,
  ) {}

  @Get()
  async report(@Req() req: Request, @Res() res: Response): Promise<void> {
    const { storeId } = requireSeller(req);
    const report = (await this.webhooks.deliveryReport(storeId)).map((entry) => ({
      webhook: toWebhookDto(entry.webhook),
      deliveries: entry.deliveries.map(toDeliveryDto),
    }));
    const content = this.eta.render('webhooks', { report });
    this.views.render(req, res, 'content', { title: 'Webhooks', content });
  }
}
