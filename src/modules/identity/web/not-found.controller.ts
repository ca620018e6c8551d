import { All, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AnonymousPage, DashboardPages } from './dashboard-pages';
import { ViewsService } from './views.service';

/**
 * Any path under `{web_url}` that no page answers: an HTML 404 page with a way back, as a browser
 * expects, instead of the API's JSON, with or without a session. Routes match their exact paths
 * first, so this one only takes what nothing else does.
 */
@DashboardPages()
export class WebNotFoundController {
  constructor(private readonly views: ViewsService) {}

  @All('*')
  @AnonymousPage()
  notFound(@Req() req: FastifyRequest, @Res() res: FastifyReply): void {
    this.views.notFound(req, res);
  }
}
