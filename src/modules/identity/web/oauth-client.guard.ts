import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AuthorizationParams, OAuthAuthorizationService } from '../oauth/oauth-authorization.service';

const PARAMS: (keyof AuthorizationParams)[] = [
  'client_id',
  'redirect_uri',
  'state',
  'scope',
  'code_challenge',
  'code_challenge_method',
];

/**
 * The consent screen's first check: an unknown client or redirect_uri is refused (400 page) before
 * anyone is asked to log in; then comes the login (`SessionGuard`), then the scopes.
 */
@Injectable()
export class OAuthClientGuard implements CanActivate {
  constructor(private readonly authorization: OAuthAuthorizationService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<FastifyRequest>();
    await this.authorization.resolveClient(
      pick(req.method === 'POST' ? formOf(req) : (req.query as Record<string, unknown>)),
    );
    return true;
  }
}

export function formOf(req: FastifyRequest): Record<string, unknown> {
  return (req.body ?? {}) as Record<string, unknown>;
}

/** The consent screen's parameters, from its query (GET) or its form (POST). */
export function pick(source: Record<string, unknown>): AuthorizationParams {
  const out: AuthorizationParams = {};
  for (const key of PARAMS) if (typeof source[key] === 'string') out[key] = source[key];
  return out;
}
