import { Inject, Injectable } from '@nestjs/common';
import { randomBase62, sha256Hex } from '../../../common/crypto';
import { Clock, CLOCK } from '../../../common/time';
import { Scope } from '../scopes';
import { ScopeRegistry } from '../scopes/scope-registry';
import { OAuthApp } from './oauth-app.entity';
import { OAuthAppsService } from './oauth-apps.service';
import { OAuthGrantsRepository } from './oauth-grants.repository';

/** An authorization code is valid for 10 minutes. */
export const CODE_TTL_MS = 10 * 60 * 1000;

/** The query of `{web_url}/oauth/authorize` (README, *Operating it*), echoed back by the consent form. */
export interface AuthorizationParams {
  client_id?: string;
  redirect_uri?: string;
  state?: string;
  scope?: string;
  code_challenge?: string;
  code_challenge_method?: string;
}

/** A request the screen must refuse with an error page and no redirect (README, *Operating it*). */
export class AuthorizationRequestError extends Error {}

export interface ValidAuthorization {
  app: OAuthApp;
  redirectUri: string;
  state: string | null;
  scopes: Scope[];
  codeChallenge: string | null;
}

/** The consent screen's rules and the issuing of authorization codes. */
@Injectable()
export class OAuthAuthorizationService {
  constructor(
    private readonly apps: OAuthAppsService,
    private readonly grants: OAuthGrantsRepository,
    private readonly scopes: ScopeRegistry,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Checked before anything else, so a bad request never redirects anywhere. */
  async resolveClient(params: AuthorizationParams): Promise<{ app: OAuthApp; redirectUri: string }> {
    const app = await this.apps.findActive(single(params.client_id));
    if (!app) throw new AuthorizationRequestError('Unknown or inactive application.');
    const redirectUri = single(params.redirect_uri);
    if (!redirectUri || !app.redirectUris.includes(redirectUri)) {
      throw new AuthorizationRequestError('The redirect_uri is not registered for this application.');
    }
    return { app, redirectUri };
  }

  /** The whole request: client, redirect_uri, scopes (required, space- or comma-separated) and PKCE. */
  async validate(params: AuthorizationParams): Promise<ValidAuthorization> {
    const { app, redirectUri } = await this.resolveClient(params);
    const requested = (single(params.scope) ?? '').split(/[\s,]+/).filter(Boolean);
    if (!requested.length) throw new AuthorizationRequestError('The scope parameter is required.');
    const unknown = requested.filter((scope) => !this.scopes.has(scope));
    if (unknown.length) throw new AuthorizationRequestError(`Unknown scope: ${unknown.join(', ')}.`);
    const challenge = single(params.code_challenge) || null;
    const method = single(params.code_challenge_method);
    if (challenge && method !== 'S256') {
      throw new AuthorizationRequestError('Only the S256 code_challenge_method is supported.');
    }
    if (challenge && !/^[A-Za-z0-9_-]{43}$/.test(challenge)) {
      throw new AuthorizationRequestError('The code_challenge is not a base64url SHA-256 digest.');
    }
    if (!challenge && method) throw new AuthorizationRequestError('code_challenge_method without code_challenge.');
    // The token endpoint takes a code without `state` only when it was issued with a PKCE challenge:
    // a request with neither would give the app a code it can never exchange.
    if (!challenge && !single(params.state))
      throw new AuthorizationRequestError('The state parameter is required without a PKCE code_challenge.');
    return {
      app,
      redirectUri,
      state: single(params.state) ?? null,
      scopes: [...new Set(requested)] as Scope[],
      codeChallenge: challenge,
    };
  }

  /**
   * The seller approved `approved` (a subset of the requested scopes; anything else is ignored).
   * Returns the URL to send the browser to, carrying the code and the state.
   */
  async approve(
    request: ValidAuthorization,
    seller: { sellerId: number; storeId: number },
    approved: string[],
  ): Promise<string> {
    const scopes = request.scopes.filter((scope) => approved.includes(scope));
    if (!scopes.length) return this.deny(request);
    const code = randomBase62(43);
    await this.grants.createGrantWithCode(
      { appId: request.app.id, storeId: seller.storeId, sellerId: seller.sellerId, scopes },
      {
        codeHash: sha256Hex(code),
        redirectUri: request.redirectUri,
        state: request.state,
        codeChallenge: request.codeChallenge,
        expiresAt: new Date(this.clock.now().getTime() + CODE_TTL_MS),
      },
    );
    return withQuery(request.redirectUri, { code, state: request.state });
  }

  deny(request: ValidAuthorization): string {
    return withQuery(request.redirectUri, { error: 'access_denied', state: request.state });
  }
}

/** Repeated query parameters are ambiguous; only a single string counts. */
function single(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function withQuery(uri: string, params: Record<string, string | null>): string {
  const url = new URL(uri);
  for (const [key, value] of Object.entries(params)) if (value !== null) url.searchParams.set(key, value);
  return url.toString();
}
