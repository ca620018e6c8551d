import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiExtension,
  DECORATORS,
  ApiForbiddenResponse,
  ApiOAuth2,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Scope } from '../scopes';
import type { Principal } from './principal';
import { ApiRateLimited, RATE_LIMIT_HEADERS, wwwAuthenticateHeader } from '../../../common/http/api-docs';
import { ErrorResponseDto, ForbiddenResponseDto } from '../../../common/http/error-response.dto';

export const PUBLIC_KEY = 'auth:public';
export const SCOPES_KEY = 'auth:scopes';
export const ANY_TOKEN_KEY = 'auth:any-token';

/**
 * Opts a route (or a whole controller) out of bearer authentication; OpenAPI shows `security: [{}]`
 * (no credentials needed).
 */
export const Public = (): MethodDecorator & ClassDecorator =>
  applyDecorators(SetMetadata(PUBLIC_KEY, true), SetMetadata(DECORATORS.API_SECURITY, [{}]));

/** The three 401s (the security schemes of the OpenAPI description), with the challenge each carries. */
const UNAUTHORIZED_EXAMPLES = {
  'no-token': { summary: 'No Authorization header', value: { status: 'error', message: 'Token not provided' } },
  'not-bearer': {
    summary: 'Authorization is not `Bearer <token>`',
    value: { status: 'error', message: 'Unauthorized user.' },
  },
  'invalid-token': {
    summary: 'Unknown, revoked or expired token',
    value: { status: 'error', message: 'Invalid token' },
  },
};

const documentAuth = (scopes: Scope[]) =>
  applyDecorators(
    ApiBearerAuth(),
    // The same requirement for Swagger UI's OAuth flow: an access token with these scopes.
    ApiOAuth2(scopes),
    ApiUnauthorizedResponse({
      description: '`Token not provided`, `Unauthorized user.` or `Invalid token`.',
      type: ErrorResponseDto,
      examples: UNAUTHORIZED_EXAMPLES,
      headers: wwwAuthenticateHeader('Bearer realm="commerce-api", error="invalid_token"'),
    }),
    ApiRateLimited(),
    ...(scopes.length
      ? [
          ApiForbiddenResponse({
            description: `\`Permission denied for this endpoint.\` — the token lacks ${scopes.join(', ')}.`,
            type: ForbiddenResponseDto,
            headers: {
              ...wwwAuthenticateHeader(`Bearer error="insufficient_scope", scope="${scopes.join(' ')}"`),
              ...RATE_LIMIT_HEADERS,
            },
          }),
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
