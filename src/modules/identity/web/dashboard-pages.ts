import {
  applyDecorators,
  CanActivate,
  Controller,
  createParamDecorator,
  ExecutionContext,
  SetMetadata,
  Type,
  UseFilters,
  UseGuards,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Public } from '../auth/auth.decorators';
import { CsrfGuard } from './sessions/web-session.middleware';
import { SessionGuard } from './sessions/session.guard';
import { ANONYMOUS_PAGE_KEY, RETURN_AFTER_LOGIN_KEY, sellerOf, SellerSession } from './web-auth';
import { WebExceptionFilter } from './web-exception.filter';

/**
 * A controller of dashboard pages under `{web_url}`. Like the API's global guard, it denies by
 * default: every route needs a logged-in seller (`SessionGuard`, else 303 to `/login?next=…`)
 * unless it is marked `@AnonymousPage()`; every POST carries the session's CSRF token
 * (`CsrfGuard`); errors are pages (`WebExceptionFilter`). Bearer tokens play no part here (hence
 * `@Public()` for the API's guard) and the routes stay out of the OpenAPI description.
 *
 * `before`: guards that must answer before the login check (the consent screen refuses an unknown
 * OAuth client before asking anyone to log in, README "OAuth").
 *
 * The module that declares the controller applies `WebSessionMiddleware` to it.
 */
export function DashboardPages(path = '', options: { before?: Type<CanActivate>[] } = {}): ClassDecorator {
  return applyDecorators(
    ApiExcludeController(),
    Public(),
    UseFilters(WebExceptionFilter),
    UseGuards(CsrfGuard, ...(options.before ?? []), SessionGuard),
    Controller(path),
  );
}

/** A dashboard route open without a session: sign-up, login, logout, password reset. */
export const AnonymousPage = (): MethodDecorator & ClassDecorator => SetMetadata(ANONYMOUS_PAGE_KEY, true);

/**
 * Where the login page sends the seller back to when this route finds no session (default: the
 * requested address). For a form POST, the page that shows the form again.
 */
export const ReturnAfterLogin = (to: (req: FastifyRequest) => string): MethodDecorator =>
  SetMetadata(RETURN_AFTER_LOGIN_KEY, to);

/** The logged-in seller and their store, set by `SessionGuard`. */
export const CurrentSeller = createParamDecorator((_: unknown, ctx: ExecutionContext): SellerSession =>
  sellerOf(ctx.switchToHttp().getRequest<FastifyRequest>()),
);
