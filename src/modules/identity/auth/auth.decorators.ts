import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiExtension, ApiForbiddenResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Scope } from '../scopes';
import type { Principal } from './principal';
import { ErrorResponseDto, ForbiddenResponseDto } from '../../../common/http/error-response.dto';

export const PUBLIC_KEY = 'auth:public';
export const SCOPES_KEY = 'auth:scopes';
export const ANY_TOKEN_KEY = 'auth:any-token';

/** Opts a route (or a whole controller) out of bearer authentication. */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(PUBLIC_KEY, true);

const documentAuth = (scopes: Scope[]) =>
  applyDecorators(
    ApiBearerAuth(),
    ApiUnauthorizedResponse({ description: 'Missing or invalid token.', type: ErrorResponseDto }),
    ...(scopes.length
      ? [
          ApiForbiddenResponse({ description: `Token lacks ${scopes.join(', ')}.`, type: ForbiddenResponseDto }),
          ApiExtension('x-required-scopes', scopes),
        ]
      : []),
  );

/** Declares the scopes a route needs; enforced by the global guard and shown in OpenAPI. */
export const RequireScopes = (...scopes: Scope[]): MethodDecorator & ClassDecorator =>
  applyDecorators(SetMetadata(SCOPES_KEY, scopes), documentAuth(scopes));

/** Any valid token, whatever its scopes (`GET /v1/scopes`). */
export const AnyToken = (): MethodDecorator & ClassDecorator =>
  applyDecorators(SetMetadata(ANY_TOKEN_KEY, true), documentAuth([]));

export type AuthenticatedRequest = FastifyRequest & { principal?: Principal };

/** The authenticated caller, set by the guard. */
export const CurrentPrincipal = createParamDecorator((_: unknown, ctx: ExecutionContext): Principal => {
  const principal = ctx.switchToHttp().getRequest<AuthenticatedRequest>().principal;
  if (!principal) throw new Error('CurrentPrincipal used on a route without authentication');
  return principal;
});
