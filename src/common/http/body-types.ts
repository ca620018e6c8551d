import { applyDecorators } from '@nestjs/common';
import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants';
import { ApiConsumes } from '@nestjs/swagger';
import type { FastifyInstance, FastifyRequest, preParsingHookHandler } from 'fastify';
import { AppError } from '../errors/app-error';

/**
 * The media types an API route (`/v1`) reads its body as. The contract's bodies are JSON; a route
 * that reads others says so with {@link AcceptsBody} (the OpenAPI description's `consumes` and the
 * check below are the same list). A payment callback (`KeepRawBody`) reads what its gateway sends.
 */
export interface BodyRouteConfig {
  bodyTypes?: readonly string[];
  keepRawBody?: boolean;
  /** Every 4xx of the route is an RFC 6749 §5.2 error (`error`, `error_description`): {@link OAuthErrorBodies}. */
  oauthErrors?: boolean;
}

export const JSON_MEDIA_TYPE = 'application/json';

/** The route reads its body as any of `types` (documented as its `consumes` too). */
export const AcceptsBody = (...types: string[]): MethodDecorator =>
  applyDecorators(ApiConsumes(...types), bodyRouteConfig({ bodyTypes: types }));

/**
 * Adds `config` to the handler's Fastify route config, keeping what another decorator put there
 * (Nest's `RouteConfig` replaces it: `AcceptsBody` and `KeepRawBody` on one route would lose one).
 */
export function bodyRouteConfig(config: BodyRouteConfig): MethodDecorator {
  return (_target, _key, descriptor: PropertyDescriptor) => {
    const handler = descriptor.value as object;
    const current = (Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler) ?? {}) as BodyRouteConfig;
    Reflect.defineMetadata(FASTIFY_ROUTE_CONFIG_METADATA, { ...current, ...config }, handler);
    return descriptor;
  };
}

/**
 * The route answers as an OAuth endpoint (RFC 6749 §5.2, RFC 7009 §2.2.1): a body it cannot read
 * (400, 413, 415) or fields of the wrong form (422) carry `error: invalid_request` and an
 * `error_description`, like its own errors (the exception filter); their statuses stay the contract's.
 */
export const OAuthErrorBodies = (): MethodDecorator => bodyRouteConfig({ oauthErrors: true });

export class UnsupportedMediaTypeError extends AppError {
  readonly httpStatus = 415;
}

/** `Content-Type must be application/json.`, or the route's own list. */
export function unsupportedMediaTypeMessage(types: readonly string[] = [JSON_MEDIA_TYPE]): string {
  return `Content-Type must be ${types.join(' or ')}.`;
}

/** `application/json; charset=utf-8` → `application/json`; `application/merge-patch+json` reads as JSON. */
function essence(contentType: string | undefined): string {
  const type = (contentType ?? '').split(';', 1)[0].trim().toLowerCase();
  return /^application\/[\w.+-]+\+json$/.test(type) ? JSON_MEDIA_TYPE : type;
}

/** A body is on its way: a length above zero, or chunks. */
function hasBody(req: FastifyRequest): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/**
 * A body on an API route (`{apiPrefix}/…`) of a type the route does not read is refused with 415
 * before it is parsed (README, *Choices where the contract is silent*), instead of being left unread,
 * which made a `PATCH` sent as `text/plain` answer 200 with nothing changed. A request without a
 * body passes whatever its `Content-Type`. The check is a hook of those routes only (added as each
 * route is registered), so reads and the other surfaces run no extra step.
 */
export function registerBodyTypeCheck(fastify: FastifyInstance, apiPrefix: string): void {
  fastify.addHook('onRoute', (route) => {
    const config = route.config as BodyRouteConfig | undefined;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!route.url.startsWith(apiPrefix) || config?.keepRawBody || !methods.some((m) => BODY_METHODS.has(m))) return;
    const accepted = config?.bodyTypes ?? [JSON_MEDIA_TYPE];
    const message = unsupportedMediaTypeMessage(accepted);
    const check: preParsingHookHandler = (req, _reply, payload, done) => {
      if (!hasBody(req) || accepted.includes(essence(req.headers['content-type']))) return done(null, payload);
      done(new UnsupportedMediaTypeError(message));
    };
    const own = route.preParsing;
    route.preParsing = own === undefined ? [check] : [check, ...(Array.isArray(own) ? own : [own])];
  });
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
