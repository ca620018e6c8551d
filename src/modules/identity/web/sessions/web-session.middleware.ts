import { CanActivate, ExecutionContext, Injectable, NestMiddleware } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { FastifyRequest } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SESSION_LOAD_ERROR } from '../web-auth';
import { csrfTokenMatches, InvalidFormError } from './csrf';
import { WebSessionService } from './web-session.service';

/**
 * Loads the dashboard session (express-session + connect-pg-simple). Nest runs middleware on the
 * underlying Node request and response, where express-session keeps the session
 * (`sessionOf(req)` in web-auth.ts reads it back).
 */
@Injectable()
export class WebSessionMiddleware implements NestMiddleware {
  constructor(private readonly sessions: WebSessionService) {}

  use(req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void): void {
    this.sessions.handler(req as Request, res as Response, (error?: unknown) => {
      // Raised where a page reads the session, so the dashboard's error page answers it.
      if (error !== undefined)
        (req as IncomingMessage & { [SESSION_LOAD_ERROR]?: unknown })[SESSION_LOAD_ERROR] = error;
      next();
    });
  }
}

/**
 * A POST without the session's CSRF token gets 403 before the handler runs, so it
 * changes nothing. A guard rather than middleware: the form body is parsed by then.
 */
@Injectable()
export class CsrfGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<FastifyRequest>();
    if (req.method === 'POST' && !csrfTokenMatches(req)) throw new InvalidFormError();
    return true;
  }
}
