import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { ViewsService } from '../views.service';
import { csrf } from './csrf';
import { WebSessionService } from './web-session.service';

/** Loads the dashboard session (express-session + connect-pg-simple). */
@Injectable()
export class WebSessionMiddleware implements NestMiddleware {
  constructor(private readonly sessions: WebSessionService) {}

  use(req: Request, res: Response, next: NextFunction): void {
    this.sessions.handler(req, res, next);
  }
}

/** decisions §2.1: a POST without the session's CSRF token gets 403 before any controller runs, so it changes nothing. */
@Injectable()
export class CsrfMiddleware implements NestMiddleware {
  constructor(private readonly views: ViewsService) {}

  use(req: Request, res: Response, next: NextFunction): void {
    if (req.method === 'POST' && !csrf.isRequestValid(req)) {
      const message = 'The form has expired or did not come from this site. Reload the page and try again.';
      this.views.render(req, res, 'error', { title: 'Forbidden', message }, 403);
      return;
    }
    next();
  }
}
