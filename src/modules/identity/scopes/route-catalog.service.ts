import { Injectable, OnModuleInit, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { IDEMPOTENT_KEY } from '../../../common/idempotency/idempotent.decorator';
import { ANY_TOKEN_KEY, PUBLIC_KEY, SCOPES_KEY } from '../auth/auth.decorators';
import { Scope } from '../scopes';
import { ScopeRegistry } from './scope-registry';

/** One route as the global guard sees it. */
export interface RouteAccess {
  method: string;
  /** `/v1/products/{id}`, relative to `{base_url}` as the spec writes paths. */
  path: string;
  public: boolean;
  anyToken: boolean;
  scopes: Scope[] | undefined;
  /** Marked `@Idempotent()`: takes an `Idempotency-Key` (README, *Choices where the contract is silent*). */
  idempotent: boolean;
}

const underV1 = (route: RouteAccess) => route.path === '/v1' || route.path.startsWith('/v1/');

/** Routes under `/v1` that declare neither `@Public()`, `@AnyToken()` nor `@RequireScopes()`. */
export function undeclaredRoutes(routes: RouteAccess[]): RouteAccess[] {
  return routes.filter((route) => underV1(route) && !route.public && !route.anyToken && !route.scopes);
}

/** Authenticated POSTs under `/v1` without `@Idempotent()`: (README, *Choices where the contract is silent*) gives each of them a key. */
export function postsWithoutIdempotency(routes: RouteAccess[]): RouteAccess[] {
  return routes.filter((route) => route.method === 'POST' && underV1(route) && !route.public && !route.idempotent);
}

/** Routes whose `@RequireScopes()` names a scope nobody registered (a typo, or a plugin's forgotten scope). */
export function routesWithUnknownScopes(routes: RouteAccess[], known: (scope: string) => boolean): RouteAccess[] {
  return routes.filter((route) => (route.scopes ?? []).some((scope) => !known(scope)));
}

/**
 * Every controller route with the access metadata the guard enforces, read from the same
 * decorators, so `GET /v1/scopes` cannot drift from enforcement. Start-up fails when a `/v1`
 * route forgot to declare its access, names an unregistered scope, or is an authenticated `/v1`
 * POST without `@Idempotent()`.
 */
@Injectable()
export class RouteCatalogService implements OnModuleInit {
  private routes: RouteAccess[] = [];

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
    private readonly scopes: ScopeRegistry,
  ) {}

  onModuleInit(): void {
    this.routes = this.collect();
    const undeclared = undeclaredRoutes(this.routes);
    if (undeclared.length)
      throw new Error(`Routes without @Public(), @AnyToken() or @RequireScopes(): ${listed(undeclared)}`);
    const unknownScopes = routesWithUnknownScopes(this.routes, (scope) => this.scopes.has(scope));
    if (unknownScopes.length) throw new Error(`Routes requiring a scope nobody registered: ${listed(unknownScopes)}`);
    const withoutKey = postsWithoutIdempotency(this.routes);
    if (withoutKey.length) throw new Error(`POST routes under /v1 without @Idempotent(): ${listed(withoutKey)}`);
  }

  all(): RouteAccess[] {
    return this.routes;
  }

  /** Every scope's endpoints, as `GET /v1/…` strings, sorted. */
  endpointsByScope(): Map<Scope, string[]> {
    const out = new Map<Scope, string[]>();
    for (const route of this.routes) {
      if (route.public || route.anyToken) continue;
      for (const scope of route.scopes ?? []) {
        const list = out.get(scope) ?? [];
        list.push(`${route.method} ${route.path}`);
        out.set(scope, list);
      }
    }
    for (const list of out.values()) list.sort(compareEndpoints);
    return out;
  }

  private collect(): RouteAccess[] {
    const routes: RouteAccess[] = [];
    for (const wrapper of this.discovery.getControllers()) {
      const controller = wrapper.metatype as (new (...args: never[]) => unknown) | undefined;
      if (!controller || !wrapper.instance) continue;
      const prototype = Object.getPrototypeOf(wrapper.instance) as Record<string, unknown>;
      const classPaths = asArray(Reflect.getMetadata(PATH_METADATA, controller) as string | string[] | undefined);
      for (const name of this.scanner.getAllMethodNames(prototype)) {
        const handler = prototype[name] as (...args: unknown[]) => unknown;
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        if (method === undefined) continue;
        const methodPaths = asArray(Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined);
        const targets = [handler, controller];
        for (const classPath of classPaths) {
          for (const methodPath of methodPaths) {
            routes.push({
              method: RequestMethod[method],
              path: joinPath(classPath, methodPath),
              public: this.reflector.getAllAndOverride<boolean>(PUBLIC_KEY, targets) === true,
              anyToken: this.reflector.getAllAndOverride<boolean>(ANY_TOKEN_KEY, targets) === true,
              scopes: this.reflector.getAllAndOverride<Scope[] | undefined>(SCOPES_KEY, targets),
              idempotent: this.reflector.get<boolean | undefined>(IDEMPOTENT_KEY, handler) === true,
            });
          }
        }
      }
    }
    return routes;
  }
}

function listed(routes: RouteAccess[]): string {
  return routes.map((route) => `${route.method} ${route.path}`).join(', ');
}

function asArray(value: string | string[] | undefined): string[] {
  if (value === undefined) return [''];
  return Array.isArray(value) ? value : [value];
}

function joinPath(...parts: string[]): string {
  const joined = parts
    .flatMap((part) => part.split('/'))
    .filter(Boolean)
    .map((segment) => segment.replace(/^:(\w+).*$/, '{$1}'))
    .join('/');
  return `/${joined}`;
}

function compareEndpoints(a: string, b: string): number {
  const [methodA, pathA] = a.split(' ');
  const [methodB, pathB] = b.split(' ');
  return pathA === pathB ? methodA.localeCompare(methodB) : pathA.localeCompare(pathB);
}
