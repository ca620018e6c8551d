import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { SellersService } from '../../sellers/sellers.service';
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
 * one, `WebExceptionFilter` answers 303 to the login page with `next` (README "Dashboard"). It also
 * reads whether the seller is an operator (the review pages, the "Review" link).
 */
@Injectable()
export class SessionGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly sellers: SellersService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    const req = context.switchToHttp().getRequest<SellerRequest>();
    const seller = currentStoreOf(req);
    if (seller) {
      // One primary-key read: the navigation's "Review" link and the review pages follow the role as it is now.
      req.seller = { ...seller, operator: await this.sellers.isOperator(seller.sellerId) };
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
