import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../../common/errors/app-error';
import { toErrorResponse } from '../../../common/http/exception.filter';
import { isDatabaseUnavailable } from '../../../database/unavailable';
import { AuthorizationRequestError } from '../oauth/oauth-authorization.service';
import { ViewsService } from './views.service';
import { InvalidFormError } from './sessions/csrf';
import { sectionOf } from './sections';
import { loadedSessionOf, LoginRequiredError } from './web-auth';

/** Dashboard errors are pages, not JSON: a login redirect, or an error page with the right status. */
@Catch()
export class WebExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Web');

  constructor(private readonly views: ViewsService) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const req = host.switchToHttp().getRequest<FastifyRequest>();
    const res = host.switchToHttp().getResponse<FastifyReply>();
    if (res.sent) {
      res.raw.end();
      return;
    }
    if (exception instanceof LoginRequiredError) {
      res.redirect(`${this.views.url('/login')}?next=${encodeURIComponent(exception.returnTo)}`, 303);
      return;
    }
    const { status, title, message } = describe(exception);
    // Every dashboard error page has a way back: a record that is not found (or is the other
    // mode's) leads to its section's list, as does a refused action. The consent screen's errors
    // are the authorizing app's to handle (identity's README, *OAuth*).
    const back = exception instanceof AuthorizationRequestError ? undefined : this.views.backFrom(req);
    if (status === 503) this.logger.warn({ reqId: (req as { id?: unknown }).id }, 'Database unavailable');
    else if (status >= 500)
      this.logger.error({ err: exception, reqId: (req as { id?: unknown }).id }, 'Unhandled web error');
    // The API's headers for the same error: `Retry-After` of a 429 or of an outage.
    void res.headers(toErrorResponse(exception).headers);
    const hint = modeHint(req, status, this.views.webPath);
    this.views.render(req, res, 'error', { title, message, back, hint }, status);
  }
}

/**
 * A record of a mode-scoped section that is not found may be the other mode's (README, *Test mode*):
 * the page says where to look, the same for every address, so it tells nothing about any record.
 */
function modeHint(req: FastifyRequest, status: number, webPath: string): string | null {
  if (status !== 404 || !sectionOf(req.url, webPath)?.modeScoped) return null;
  return loadedSessionOf(req)?.testStoreId
    ? 'Test mode is on: live records show only with the Test mode switch off.'
    : 'Records made in test mode show only with the Test mode switch on.';
}

function describe(exception: unknown): { status: number; title: string; message: string } {
  if (exception instanceof InvalidFormError) return { status: 403, title: 'Forbidden', message: exception.message };
  if (exception instanceof AuthorizationRequestError) {
    return { status: 400, title: 'Authorization request refused', message: exception.message };
  }
  if (exception instanceof AppError) {
    const title =
      exception.httpStatus === 404
        ? 'Not found'
        : exception.httpStatus === 429
          ? 'Too many attempts'
          : 'Request refused';
    return { status: exception.httpStatus, title, message: exception.message };
  }
  if (exception instanceof HttpException && exception.getStatus() < 500) {
    return { status: exception.getStatus(), title: 'Request refused', message: exception.message };
  }
  if (isDatabaseUnavailable(exception)) {
    return { status: 503, title: 'Service unavailable', message: 'Service temporarily unavailable.' };
  }
  return { status: 500, title: 'Something went wrong', message: 'Internal server error.' };
}
