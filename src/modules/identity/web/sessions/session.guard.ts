import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import {
  ANONYMOUS_PAGE_KEY,
  currentStoreOf,
  LoginRequiredError,
  RETURN_AFTER_LOGIN_KEY,
  SellerRequest,
} from '../web-auth';

/**
 * The dashboard's guard, deny by default like the API's: a route of a `@DashboardPages()`
 * controller needs a session with a seller and a store unless it is `@AnonymousPage()`. Without
 * one, `WebExceptionFilter` answers 303 to the login page with `next` (README "Dashboard").
 */
@Injectable()
export class SessionGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const targets = [context.getHandler(), context.getClass()];
    const req = context.switchToHttp().getRequest<SellerRequest>();
    const seller = currentStoreOf(req);
    if (seller) {
      req.seller = seller;
      return true;
    }
    if (this.reflector.getAllAndOverride<boolean>(ANONYMOUS_PAGE_KEY, targets)) return true;
    const returnTo = this.reflector.get<((req: FastifyRequest) => string) | undefined>(
      RETURN_AFTER_LOGIN_KEY,
      context.getHandler(),
    );
    throw new LoginRequiredError(returnTo ? returnTo(req) : req.originalUrl);
  }
}
