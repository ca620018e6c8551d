import type { FastifyRequest } from 'fastify';
import { bodyRouteConfig, type BodyRouteConfig } from './body-types';

/** A request whose route opted in with {@link KeepRawBody}: the body's exact bytes, as received. */
export type RequestWithRawBody = FastifyRequest & { rawBody?: Buffer };

/**
 * Keeps the exact bytes of the JSON or form body in `req.rawBody` beside the parsed body, for a
 * route that verifies a signature over them (payment callbacks). A Fastify route config flag, read
 * by the content-type parsers (app.factory.ts) once the route is known; other routes keep nothing.
 */
export const KeepRawBody = (): MethodDecorator => bodyRouteConfig({ keepRawBody: true });

export function wantsRawBody(req: FastifyRequest): boolean {
  return (req.routeOptions?.config as BodyRouteConfig | undefined)?.keepRawBody === true;
}
