import { All, Controller, Req, Res, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../auth/auth.decorators';
import { WebSessionService } from './sessions/web-session.service';
import { ViewsService } from './views.service';
import { WebExceptionFilter } from './web-exception.filter';

/**
 * Any path under `{web_url}` that no page answers, whatever the method: an HTML 404 page with a way
 * back, as a browser expects, instead of the API's JSON, with or without a session. Routes match
 * their exact paths first, so this one only takes what nothing else does.
 *
 * Not a `@DashboardPages()` controller: there is no form here to check a CSRF token for (a POST
 * to an unknown path is the same 404 as a GET), and the session is loaded by the handler rather
 * than by `WebSessionMiddleware`, whose registration would pass this route's Fastify wildcard (`*`)
 * through Nest's path-to-regexp converter (a start-up warning, and `{*path}` is not Fastify's).
 */
@ApiExcludeController()
@Public()
@UseFilters(WebExceptionFilter)
@Controller()
export class WebNotFoundController {
  constructor(
    private readonly views: ViewsService,
    private readonly sessions: WebSessionService,
  ) {}

  @All('*')
  async notFound(@Req() req: FastifyRequest, @Res() res: FastifyReply): Promise<void> {
    await this.sessions.load(req, res);
    this.views.notFound(req, res);
  }
}
