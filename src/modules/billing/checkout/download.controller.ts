import { Controller, Get, Head, Param, Req, Res, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { FileResponder } from '../../catalog';
import { Public } from '../../identity';
import { DownloadGoneError, DownloadsService, GoneReason } from '../downloads/downloads.service';
import { CheckoutErrorsFilter } from './checkout-errors.filter';
import { CheckoutViews } from './views.service';

const GONE: Record<GoneReason, { heading: string; message: (limit: number) => string }> = {
  limit: {
    heading: 'Download limit reached',
    message: (limit) =>
      `This file has been downloaded ${limit} times with this order, the most allowed. Ask the seller if you need it again.`,
  },
  expired: {
    heading: 'This link has expired',
    message: () => 'Download links work for 24 hours. Open your order page again for a fresh link.',
  },
  refunded: {
    heading: 'Order refunded',
    message: () => 'This order was refunded, so its files can no longer be downloaded.',
  },
  subscription_expired: {
    heading: 'Subscription expired',
    message: () => 'The subscription of this order has expired, so its files can no longer be downloaded.',
  },
};

/**
 * `{pay_url}/download/{token}`: the buyer's signed, counted link to one file of
 * one order. Served as `{cdn_url}` serves files; a HEAD or a `Range` that continues a download is
 * not counted. A link that no longer works is a 410 page that says why.
 */
@ApiExcludeController()
@Public()
@UseFilters(CheckoutErrorsFilter)
@Controller('download/:token')
export class DownloadController {
  constructor(
    private readonly downloads: DownloadsService,
    private readonly responder: FileResponder,
    private readonly views: CheckoutViews,
  ) {}

  /** Declared before the GET, so Fastify does not add its own HEAD (`Content-Length: 0`). */
  @Head()
  head(@Param('token') token: string, @Req() req: FastifyRequest, @Res() res: FastifyReply): Promise<void> {
    return this.serve(token, req, res);
  }

  @Get()
  download(@Param('token') token: string, @Req() req: FastifyRequest, @Res() res: FastifyReply): Promise<void> {
    return this.serve(token, req, res);
  }

  private async serve(token: string, req: FastifyRequest, res: FastifyReply): Promise<void> {
    try {
      const { file } = await this.downloads.open(token, {
        head: req.method === 'HEAD',
        range: req.headers.range,
        ip: req.ip,
        userAgent: req.headers['user-agent'],
      });
      await this.responder.send(file, req, res, { cacheControl: 'private, no-store' });
    } catch (error) {
      if (!(error instanceof DownloadGoneError)) throw error;
      const page = GONE[error.reason];
      this.views.render(res, 'error', { heading: page.heading, message: page.message(this.downloads.limit) }, 410);
    }
  }
}
