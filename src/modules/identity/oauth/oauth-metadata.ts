import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { AppConfig } from '../../../config/app-config';
import { APP_CONFIG } from '../../../config/config.module';
import { ALL_SCOPES } from '../scopes';

/** RFC 8414 §2: what a standard client needs to find every endpoint by itself (the security schemes of the OpenAPI description). */
export interface AuthorizationServerMetadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  revocation_endpoint: string;
  scopes_supported: string[];
  response_types_supported: string[];
  grant_types_supported: string[];
  code_challenge_methods_supported: string[];
  token_endpoint_auth_methods_supported: string[];
  revocation_endpoint_auth_methods_supported: string[];
  service_documentation: string;
}

export function authorizationServerMetadata(config: AppConfig): AuthorizationServerMetadata {
  const authMethods = ['client_secret_basic', 'client_secret_post'];
  return {
    issuer: config.urls.base,
    authorization_endpoint: `${config.urls.web}/oauth/authorize`,
    token_endpoint: `${config.urls.base}/v1/oauth/token`,
    revocation_endpoint: `${config.urls.base}/v1/oauth/revoke`,
    scopes_supported: [...ALL_SCOPES],
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: authMethods,
    revocation_endpoint_auth_methods_supported: authMethods,
    service_documentation: `${config.urls.base}/docs`,
  };
}

/**
 * RFC 8414 §3: the metadata lives at `/.well-known/oauth-authorization-server` on the host of the
 * issuer (`{base_url}`), with the issuer's path, if any, appended after it:
 * `https://api.example.com` → `/.well-known/oauth-authorization-server`,
 * `https://example.com/api` → `/.well-known/oauth-authorization-server/api`.
 */
export function metadataPath(config: AppConfig): string {
  return `/.well-known/oauth-authorization-server${config.paths.base}`;
}

/**
 * Serves the metadata at the root of the base surface's host, outside the `{base_url}` mount that
 * every Nest route of the API lives under, hence a plain Fastify route. Public, cacheable, and no
 * part of the OpenAPI description (whose paths are relative to `{base_url}`).
 */
@Injectable()
export class OAuthMetadataRoute implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter?.getInstance() as FastifyInstance | undefined;
    // The worker process builds the modules without an HTTP server.
    if (!fastify?.get) return;
    const body = JSON.stringify(authorizationServerMetadata(this.config));
    fastify.get(metadataPath(this.config), (_request, reply) => {
      void reply
        .header('Content-Type', 'application/json; charset=utf-8')
        .header('Cache-Control', 'public, max-age=3600')
        .send(body);
    });
  }
}
