import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { toErrorResponse } from '../../../common/http/exception.filter';
import { wantsJson } from './content-negotiation';
import { CheckoutViews } from './views.service';

/**
 * Errors of the customer's pages: a page for browsers, the contract's JSON error body for
 * `Accept: application/json` clients.
 */
@Catch()
export class CheckoutErrorsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Checkout');

  constructor(private readonly views: CheckoutViews) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const req = host.switchToHttp().getRequest<FastifyRequest>();
    const res = host.switchToHttp().getResponse<FastifyReply>();
    const { status, body, headers } = toErrorResponse(exception);
    if (status === 503) this.logger.warn({ reqId: (req as { id?: unknown }).id }, 'Database unavailable');
    else if (status >= 500)
      this.logger.error({ err: exception, reqId: (req as { id?: unknown }).id }, 'Unhandled error');
    if (res.sent) {
      res.raw.end();
      return;
    }
    // `Retry-After` of an outage or a 429 on the page too, as on the JSON answer.
    void res.headers(headers);
    if (wantsJson(req)) {
      void res.status(status).send(body);
      return;
    }
    if (status === 404) return this.views.notFound(res);
    this.views.render(
      res,
      'error',
      {
        heading: status === 503 ? 'Service unavailable' : status >= 500 ? 'Something went wrong' : 'Request failed',
        message: body.message,
      },
      status,
    );
  }
}
