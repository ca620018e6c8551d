import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { generateToken, sha256Hex } from '../../../common/crypto';
import { Clock, CLOCK, formatTimestamp } from '../../../common/time';
import { AuthService } from '../auth/auth.service';
import { Principal } from '../auth/principal';
import { Scope } from '../scopes';
import { OAuthApp } from './oauth-app.entity';
import { OAuthAppsService } from './oauth-apps.service';
import { OAuthError } from './oauth-error';
import { OAuthGrant } from './oauth-grant.entity';
import { OAuthGrantsRepository } from './oauth-grants.repository';

/** Access tokens expire after 30 days. */
export const ACCESS_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;

export interface TokenRequest {
  grant_type?: string;
  code?: string;
  client_id?: string;
  client_secret?: string;
  redirect_uri?: string;
  state?: string;
  code_verifier?: string;
  refresh_token?: string;
}

/** The OAuth token response of the OpenAPI description plus `scope` (the security schemes of the OpenAPI description). */
export interface TokenResponse {
  access_token: string;
  refresh_token: string;
  token_type: 'Bearer';
  expires_in: number;
  expires_at: string;
  permissions: Scope[];
  scope: string;
}

const INVALID_CODE = 'Invalid or expired code';
const INVALID_REFRESH = 'Invalid refresh token';

/** The token endpoint's grants (the security schemes of the OpenAPI description), revocation (RFC 7009) and `at_` authentication. */
@Injectable()
export class OAuthTokensService implements OnModuleInit {
  constructor(
    private readonly apps: OAuthAppsService,
    private readonly grants: OAuthGrantsRepository,
    private readonly auth: AuthService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    // OAuth access tokens go through the same guard as API keys.
    this.auth.register({ prefix: 'at_', authenticate: (token) => this.authenticate(token) });
  }

  async token(request: TokenRequest): Promise<TokenResponse> {
    const grantType = request.grant_type ?? 'authorization_code';
    if (grantType === 'authorization_code') return this.exchangeCode(request);
    if (grantType === 'refresh_token') return this.refresh(request);
    throw new OAuthError(400, 'Unsupported grant type', 'unsupported_grant_type');
  }

  /** Checks in the order (the security schemes of the OpenAPI description); a code is consumed only by a successful exchange. */
  async exchangeCode(request: TokenRequest): Promise<TokenResponse> {
    const app = await this.authenticateClient(request);
    const now = this.clock.now();
    const code = request.code ? await this.grants.findCodeByHash(sha256Hex(request.code)) : null;
    if (!code) throw OAuthError.invalidGrant(INVALID_CODE);
    if (code.usedAt) {
      await this.grants.revokeGrant(code.grantId, now);
      throw OAuthError.invalidGrant(INVALID_CODE);
    }
    if (now.getTime() >= code.expiresAt.getTime()) throw OAuthError.invalidGrant(INVALID_CODE);
    if (code.appId !== app.id) throw OAuthError.invalidGrant('client_id mismatch');
    if (request.redirect_uri !== code.redirectUri || !app.redirectUris.includes(request.redirect_uri)) {
      throw OAuthError.invalidGrant('redirect_uri mismatch');
    }
    if (!stateMatches(code, request.state)) throw OAuthError.invalidGrant('Invalid state');
    if (!pkceMatches(code.codeChallenge, request.code_verifier)) throw OAuthError.invalidGrant(INVALID_CODE);

    const issued = await this.grants.transaction(async (m) => {
      if (!(await this.grants.consumeCode(code.id, now, m))) return null;
      const grant = await this.grants.findGrant(code.grantId, m);
      if (!grant || grant.revokedAt) return undefined;
      return this.issue(grant, now, m);
    });
    if (issued === null) {
      // Another exchange consumed it between our read and our write: that is reuse too.
      await this.grants.revokeGrant(code.grantId, now);
    }
    if (!issued) throw OAuthError.invalidGrant(INVALID_CODE);
    return issued;
  }

  /** Rotation: the presented refresh token is spent; presenting it again revokes the whole grant. */
  async refresh(request: TokenRequest): Promise<TokenResponse> {
    const app = await this.authenticateClient(request);
    const now = this.clock.now();
    const token = request.refresh_token ? await this.grants.findByRefreshHash(sha256Hex(request.refresh_token)) : null;
    if (!token || token.appId !== app.id) throw OAuthError.invalidGrant(INVALID_REFRESH);
    if (token.rotatedAt) {
      await this.grants.revokeGrant(token.grantId, now);
      throw OAuthError.invalidGrant(INVALID_REFRESH);
    }
    const issued = await this.grants.transaction(async (m) => {
      if (!(await this.grants.markRotated(token.id, now, m))) return null;
      const grant = await this.grants.findGrant(token.grantId, m);
      if (!grant || grant.revokedAt) return undefined;
      return this.issue(grant, now, m);
    });
    if (issued === null && !token.revokedAt) await this.grants.revokeGrant(token.grantId, now);
    if (!issued) throw OAuthError.invalidGrant(INVALID_REFRESH);
    return issued;
  }

  /**
   * RFC 7009. Unknown tokens and tokens of other clients are ignored (still 200). A refresh token
   * takes its whole grant with it; an access token takes its own pair.
   */
  async revoke(request: TokenRequest & { token?: string }): Promise<void> {
    const app = await this.authenticateClient(request);
    const value = request.token ?? '';
    const now = this.clock.now();
    if (value.startsWith('rt_')) {
      const token = await this.grants.findByRefreshHash(sha256Hex(value));
      if (token && token.appId === app.id) await this.grants.revokeGrant(token.grantId, now);
    } else if (value.startsWith('at_')) {
      const token = await this.grants.findByAccessHash(sha256Hex(value));
      if (token && token.appId === app.id) await this.grants.revokeToken(token.id, now);
    }
  }

  async authenticate(accessToken: string): Promise<Principal | null> {
    const found = await this.grants.findUsableByAccessHash(sha256Hex(accessToken));
    if (!found || found.token.expiresAt.getTime() <= this.clock.now().getTime()) return null;
    const { token } = found;
    return {
      storeId: token.storeId,
      sellerId: token.sellerId,
      currency: found.currency,
      scopes: token.scopes,
      tokenType: 'oauth',
      test: false,
      tokenId: token.id,
    };
  }

  private async authenticateClient(request: TokenRequest): Promise<OAuthApp> {
    const app = await this.apps.authenticateClient(request.client_id, request.client_secret);
    if (!app) throw OAuthError.invalidClient();
    return app;
  }

  private async issue(grant: OAuthGrant, now: Date, manager: EntityManager): Promise<TokenResponse> {
    const accessToken = generateToken('at');
    const refreshToken = generateToken('rt');
    const expiresAt = new Date(now.getTime() + ACCESS_TOKEN_TTL_SECONDS * 1000);
    await this.grants.createToken(
      {
        grantId: grant.id,
        appId: grant.appId,
        storeId: grant.storeId,
        sellerId: grant.sellerId,
        accessTokenHash: sha256Hex(accessToken),
        refreshTokenHash: sha256Hex(refreshToken),
        scopes: grant.scopes,
        expiresAt,
      },
      manager,
    );
    return {
      access_token: accessToken,
      refresh_token: refreshToken,
      token_type: 'Bearer',
      expires_in: ACCESS_TOKEN_TTL_SECONDS,
      expires_at: formatTimestamp(expiresAt),
      permissions: grant.scopes,
      scope: grant.scopes.join(' '),
    };
  }
}

/**
 * A `state` that differs from the authorization's is refused. Leaving it out is accepted only for a
 * PKCE code, whether or not the authorization had a `state` (identity's README, *OAuth*): standard
 * RFC 6749 clients (oauth4webapi) check `state` at their callback and never send it here, and the
 * verifier already binds the exchange to the client that started the authorization. A code issued
 * with neither has nothing binding it to that client, so its exchange without `state` is refused too.
 */
function stateMatches(
  code: { state: string | null; codeChallenge: string | null },
  state: string | undefined,
): boolean {
  if (state === undefined) return code.codeChallenge !== null;
  return state === code.state;
}

/** RFC 7636 S256; a verifier without a challenge is refused too, so PKCE cannot be bolted on later. */
function pkceMatches(challenge: string | null, verifier: string | undefined): boolean {
  if (!challenge) return verifier === undefined;
  if (!verifier || !/^[A-Za-z0-9._~-]{43,128}$/.test(verifier)) return false;
  return createHash('sha256').update(verifier).digest('base64url') === challenge;
}
