import { INestApplication, RequestMethod, Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import { ApiExtraModels, DECORATORS, getSchemaPath } from '@nestjs/swagger';
import type { HeaderObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import {
  errorExample,
  IDEMPOTENT,
  IDEMPOTENT_REPLAYED_HEADER,
  RATE_LIMIT_HEADERS,
  PER_IP_RATE_LIMIT_HEADERS,
  RATE_LIMITED,
  RATE_LIMITED_PER_IP,
  RETRY_AFTER_HEADER,
  wwwAuthenticateHeader,
} from './api-docs';
import { bearerChallenge } from './auth-challenge';
import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants';
import { ANSWER_UNREADABLE_MESSAGE } from '../idempotency/idempotency.guard';
import { BodyRouteConfig, unsupportedMediaTypeMessage } from './body-types';
import { ErrorResponseDto } from './error-response.dto';

/*
 * What follows from a route itself, added to its documented answers before the document is built
 * (the list at the top of api-docs.ts): 400, 413 and 415 where a body is read (a DELETE's too, when it
 * comes with one), 500 and 503 everywhere,
 * the idempotency answers and headers, the rate-limit headers.
 */

type ResponseEntry = { description?: string; headers?: Record<string, HeaderObject>; [key: string]: unknown };

const BODY_METHODS = new Set([RequestMethod.POST, RequestMethod.PUT, RequestMethod.PATCH, RequestMethod.DELETE]);

/**
 * Adds to every route handler's response metadata what follows from the route (the list at the top
 * of api-docs.ts). Runs before `SwaggerModule.createDocument`; idempotent, so several apps in one
 * process (tests) see the same metadata.
 */
export function applyResponseConventions(app: INestApplication): void {
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as Type<unknown> | undefined;
      if (!controller?.prototype) continue;
      for (const name of Object.getOwnPropertyNames(controller.prototype)) {
        const handler = Object.getOwnPropertyDescriptor(controller.prototype, name)?.value as object | undefined;
        if (typeof handler !== 'function' || Reflect.getMetadata(PATH_METADATA, handler) === undefined) continue;
        if (
          Reflect.getMetadata(DECORATORS.API_EXCLUDE_ENDPOINT, handler) ||
          Reflect.getMetadata(DECORATORS.API_EXCLUDE_CONTROLLER, controller)
        )
          continue;
        applyConventions(controller, handler);
      }
    }
  }
}

/**
 * Documents one more error body under `status`: alone when the operation has none, otherwise as
 * an alternative (`anyOf`) to what it declares, so both bodies validate.
 */
function addError(
  controller: Type<unknown>,
  responses: Record<string, ResponseEntry>,
  status: number,
  message: string,
  when: string,
): void {
  const line = `\`${message}\` — ${when}.`;
  const existing = responses[String(status)];
  if (!existing) {
    responses[String(status)] = { description: line, type: ErrorResponseDto, example: errorExample(message) };
    return;
  }
  if (existing.description?.includes(message)) return;
  const declared = typeof existing.type === 'function' ? (existing.type as Type<unknown>) : undefined;
  const alternatives = declared
    ? [{ $ref: getSchemaPath(declared) }]
    : ((existing.schema as SchemaObject | undefined)?.anyOf ?? []);
  if (declared) ApiExtraModels(declared)(controller);
  ApiExtraModels(ErrorResponseDto)(controller);
  const { type: _type, schema: _schema, example, examples, ...rest } = existing;
  const named = (examples ?? (example !== undefined ? { documented: { value: example } } : {})) as Record<
    string,
    unknown
  >;
  responses[String(status)] = {
    ...rest,
    description: existing.description ? `${existing.description}\n\n${line}` : line,
    schema:
      declared === ErrorResponseDto
        ? { $ref: getSchemaPath(ErrorResponseDto) }
        : { anyOf: [...alternatives, { $ref: getSchemaPath(ErrorResponseDto) }] },
    examples: {
      ...named,
      [message
        .replace(/[^A-Za-z0-9]+/g, '-')
        .replace(/^-|-$/g, '')
        .toLowerCase()]: { value: errorExample(message) },
    },
  };
}

function applyConventions(controller: Type<unknown>, handler: object): void {
  const own = (Reflect.getMetadata(DECORATORS.API_RESPONSE, handler) ?? {}) as Record<string, ResponseEntry>;
  const inherited = (Reflect.getMetadata(DECORATORS.API_RESPONSE, controller) ?? {}) as Record<string, ResponseEntry>;
  const responses: Record<string, ResponseEntry> = { ...inherited, ...own };
  const flag = (key: string) => Boolean(Reflect.getMetadata(key, handler) ?? Reflect.getMetadata(key, controller));

  if (BODY_METHODS.has(Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod)) {
    addError(
      controller,
      responses,
      400,
      'Malformed JSON body.',
      'the body is not JSON, not an object or array, or nested deeper than 32 levels',
    );
    addError(controller, responses, 413, 'Payload too large.', 'a body over 1 MiB');
    const route = (Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler) ?? {}) as BodyRouteConfig;
    if (!route.keepRawBody)
      addError(
        controller,
        responses,
        415,
        unsupportedMediaTypeMessage(route.bodyTypes),
        'a body of another type (a request without a body may carry any)',
      );
  }
  // Any operation may meet these.
  addError(
    controller,
    responses,
    500,
    'Internal server error.',
    'anything unexpected (logged with the request id; never a stack or SQL)',
  );
  if (!responses['503']) {
    addError(controller, responses, 503, 'Service temporarily unavailable.', 'the database cannot be reached');
    const unavailable: ResponseEntry = responses['503'];
    unavailable.headers = { ...RETRY_AFTER_HEADER };
  }
  const rateLimited = flag(RATE_LIMITED);
  const rateLimitHeaders = flag(RATE_LIMITED_PER_IP) ? PER_IP_RATE_LIMIT_HEADERS : RATE_LIMIT_HEADERS;
  const idempotent = flag(IDEMPOTENT);
  if (idempotent) {
    addError(
      controller,
      responses,
      409,
      'A request with this idempotency key is still in progress.',
      'the same `Idempotency-Key` is in flight',
    );
    addError(
      controller,
      responses,
      409,
      ANSWER_UNREADABLE_MESSAGE,
      'the same `Idempotency-Key` was answered under another `DELIVERY_SECRET`, so it is neither replayed nor run again',
    );
    addError(
      controller,
      responses,
      422,
      'Idempotency key reused with a different request.',
      'the same `Idempotency-Key` came with another body',
    );
  }
  for (const [status, entry] of Object.entries(responses)) {
    const code = Number(status);
    const headers = { ...entry.headers };
    // Only once the token (or IP) was counted: not before (400/413/415 of body parsing, 401), nor
    // where the failure may come first (500, 503).
    if (rateLimited && ![400, 401, 413, 415, 500, 503].includes(code)) Object.assign(headers, rateLimitHeaders);
    // Sent by some answers of these only: an upload's 400 or 413 (its parts are read after the token
    // was counted; a JSON body is refused before), a failure after the count.
    if (rateLimited && [400, 413, 500, 503].includes(code)) Object.assign(headers, optional(rateLimitHeaders));
    // A key keeps the first answer, an error too, but none of those before it is claimed (401,
    // 413, 415) nor those that ask for a retry (429, 5xx): IdempotencyClaims.
    if (idempotent && code >= 200 && code < 500 && ![401, 413, 415, 429].includes(code))
      Object.assign(headers, IDEMPOTENT_REPLAYED_HEADER);
    // The exception filter gives every 401 a challenge, the routes of no bearer token too.
    if (code === 401 && !headers['WWW-Authenticate']) Object.assign(headers, wwwAuthenticateHeader(bearerChallenge()));
    responses[status] = Object.keys(headers).length ? { ...entry, headers } : entry;
  }
  Reflect.defineMetadata(DECORATORS.API_RESPONSE, responses, handler);
}

/** The same headers, documented as sent by some answers of the status only. */
function optional(headers: Record<string, HeaderObject>): Record<string, HeaderObject> {
  return Object.fromEntries(Object.entries(headers).map(([name, header]) => [name, { ...header, required: false }]));
}
