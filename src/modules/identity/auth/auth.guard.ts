import { bearerChallenge } from '../../../common/http/auth-challenge';
import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply } from 'fastify';
import { ForbiddenError, TooManyRequestsError, UnauthorizedError } from '../../../common/errors/app-error';
import { setRateLimitHeaders } from '../rate-limit/rate-limit-state';
import { TokenRateLimitService } from '../rate-limit/token-rate-limit.service';
import { Scope } from '../scopes';
import { ANY_TOKEN_KEY, AuthenticatedRequest, PUBLIC_KEY, SCOPES_KEY } from './auth.decorators';
import { AuthService } from './auth.service';

/**
 * Global guard, deny by default: every route needs a valid bearer token and a declared scope
 * unless it is `@Public()` (or `@AnyToken()` for routes open to any valid token).
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly auth: AuthService,
    private readonly rateLimit: TokenRateLimitService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_KEY, targets)) return true;

    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    const header = request.headers.authorization;
    if (header === undefined) throw challenge(reply, 'Token not provided');
    const match = /^Bearer +(\S+) *$/i.exec(header);
    if (!match) throw challenge(reply, 'Unauthorized user.');
    const principal = await this.auth.authenticate(match[1]);
    if (!principal) throw challenge(reply, 'Invalid token', 'invalid_token');
    request.principal = principal;

    // Counted per token once it is known to be valid; the headers go on every answer,
    // the 403 and 429 included.
    const limit = await this.rateLimit.consume(match[1]);
    setRateLimitHeaders(reply, limit);
    if (!limit.allowed) throw new TooManyRequestsError(limit.resetSeconds);

    if (this.reflector.getAllAndOverride<boolean>(ANY_TOKEN_KEY, targets)) return true;
    // A route that forgot to declare its scopes stays closed: required [] is never granted.
    const required = this.reflector.getAllAndOverride<Scope[] | undefined>(SCOPES_KEY, targets);
    const missing = required ? required.filter((scope) => !principal.scopes.includes(scope)) : undefined;
    if (!required || missing!.length) {
      // RFC 6750 §3.1: the scopes the route needs, space-separated.
      reply.header('WWW-Authenticate', `Bearer error="insufficient_scope", scope="${(required ?? []).join(' ')}"`);
      throw new ForbiddenError('Permission denied for this endpoint.', {
        error_code: 'insufficient_scope',
        required_scopes: required ?? [],
        missing_scopes: missing ?? [],
        granted_scopes: principal.scopes,
      });
    }
    return true;
  }
}

/** The realm of every bearer challenge (the security schemes of the OpenAPI description). */
export { AUTH_REALM } from '../../../common/http/auth-challenge';

/**
 * A 401 with its RFC 6750 challenge: `error="invalid_token"` only when a bearer token was sent;
 * a request without one gets the bare challenge (RFC 6750 §3.1).
 */
function challenge(reply: FastifyReply, message: string, error?: 'invalid_token'): UnauthorizedError {
  reply.header('WWW-Authenticate', bearerChallenge(error));
  return new UnauthorizedError(message);
}
