import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { isStorableText } from '../../../common/http/input-text';
import {
  AuthorizationParams,
  AuthorizationRequestError,
  OAuthAuthorizationService,
} from '../oauth/oauth-authorization.service';

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

/**
 * The consent screen's parameters, from its query (GET) or its form (POST): where they enter, before
 * any is looked up. One that no registration can hold (U+0000, an unpaired surrogate) is an
 * authorization error, a 400 page like every other (README, *Operating it*).
 */
export function pick(source: Record<string, unknown>): AuthorizationParams {
  const out: AuthorizationParams = {};
  for (const key of PARAMS) {
    const value = source[key];
    if (typeof value !== 'string') continue;
    if (!isStorableText(value)) throw new AuthorizationRequestError(`The ${key} parameter is not valid.`);
    out[key] = value;
  }
  return out;
}
