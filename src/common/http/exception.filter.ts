import { bearerChallenge } from './auth-challenge';
import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { QueryRunnerAlreadyReleasedError } from 'typeorm';
import { isDatabaseUnavailable } from '../../database/unavailable';
import { AppError, InProgressError, TooManyRequestsError } from '../errors/app-error';
import type { BodyRouteConfig } from './body-types';
import { PresetResponse } from './preset-response';

export interface ErrorBody {
  status: 'error';
  message: string;
  [extra: string]: unknown;
}

/** Messages for errors raised by the framework or middleware rather than by our services. */
const FRAMEWORK_MESSAGES: Record<number, string> = {
  [HttpStatus.BAD_REQUEST]: 'Bad request.',
  [HttpStatus.UNAUTHORIZED]: 'Unauthorized user.',
  [HttpStatus.FORBIDDEN]: 'Forbidden.',
  [HttpStatus.NOT_FOUND]: 'Resource not found.',
  [HttpStatus.METHOD_NOT_ALLOWED]: 'Method not allowed.',
  [HttpStatus.PAYLOAD_TOO_LARGE]: 'Payload too large.',
  [HttpStatus.UNSUPPORTED_MEDIA_TYPE]: 'Unsupported media type.',
  [HttpStatus.TOO_MANY_REQUESTS]: 'Too many requests.',
};

/** Requests answered with an {@link InProgressError}: a conflict that passes. */
const answeredInPassing = new WeakSet<object>();

/**
 * Whether this request's answer is one a retry may get otherwise: a 5xx, a 429, or a 409 of work
 * still in progress. An `Idempotency-Key` keeps every other answer for its replays.
 */
export function isPassingAnswer(request: object, status: number): boolean {
  return status >= 500 || status === 429 || answeredInPassing.has(request);
}

/** The database is unreachable; clients retry after this many seconds. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Fastify reports its own client errors (body too large, bad content length, …) with these. */
function fromFramework(error: unknown): { status: number; message: string } | undefined {
  const e = error as { code?: unknown; statusCode?: unknown };
  if (typeof e?.code !== 'string' || !e.code.startsWith('FST_') || typeof e.statusCode !== 'number') return undefined;
  if (e.statusCode < 400 || e.statusCode >= 500) return undefined;
  return { status: e.statusCode, message: FRAMEWORK_MESSAGES[e.statusCode] ?? 'Bad request.' };
}

export function toErrorResponse(exception: unknown): {
  status: number;
  body: ErrorBody;
  headers: Record<string, string>;
} {
  if (exception instanceof AppError) {
    const headers: Record<string, string> = {};
    if (exception instanceof TooManyRequestsError) headers['Retry-After'] = String(exception.retryAfterSeconds);
    return {
      status: exception.httpStatus,
      body: { status: 'error', message: exception.message, ...exception.extra },
      headers,
    };
  }
  const framework = fromFramework(exception);
  if (framework)
    return { status: framework.status, body: { status: 'error', message: framework.message }, headers: {} };
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    if (status < 500) {
      return { status, body: { status: 'error', message: FRAMEWORK_MESSAGES[status] ?? 'Bad request.' }, headers: {} };
    }
  }
  if (isDatabaseUnavailable(exception)) {
    return {
      status: 503,
      body: { status: 'error', message: 'Service temporarily unavailable.' },
      headers: { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) },
    };
  }
  return { status: 500, body: { status: 'error', message: 'Internal server error.' }, headers: {} };
}

/**
 * An error of an OAuth endpoint ({@link OAuthErrorBodies}) carries the RFC 6749 §5.2 `error` and
 * `error_description` the contract asks of its error bodies: one its service raised has them
 * already; a request it could not read (400, 413, 415) or whose fields are of the wrong form (the
 * contract's 422 `Validation failed.`, kept) is `invalid_request`, its field messages the
 * description. 401, 429 and 5xx keep their own body.
 */
function asOAuthError(answer: ReturnType<typeof toErrorResponse>): ReturnType<typeof toErrorResponse> {
  const { status, body } = answer;
  if (typeof body.error === 'string' || ![400, 413, 415, 422].includes(status)) return answer;
  const fields = body.errors as Record<string, string[]> | undefined;
  const description = fields ? Object.values(fields).flat().join(' ') : body.message;
  return { ...answer, body: { ...body, error: 'invalid_request', error_description: description } };
}

/**
 * The one place where every error becomes the contract's error body (the OpenAPI description). Nest
 * also routes Fastify's errors from before a handler runs (body parsing, limits) through it. A
 * {@link PresetResponse} is no error: it goes out exactly as it was built.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('HTTP');

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const request = ctx.getRequest<FastifyRequest>();
    const reply = ctx.getResponse<FastifyReply>();
    if (exception instanceof PresetResponse) {
      if (!reply.sent) void reply.status(exception.status).headers(exception.headers).send(exception.body);
      return;
    }
    const answer = toErrorResponse(exception);
    const oauth = (request.routeOptions?.config as BodyRouteConfig | undefined)?.oauthErrors === true;
    const { status, body, headers } = oauth ? asOAuthError(answer) : answer;
    if (exception instanceof InProgressError) answeredInPassing.add(request);
    if (status === 503) {
      // An outage, not a bug: one line per request, no stack. A transaction's runner released under
      // it is counted as one too (its connection failed), but the same error is what a manager used
      // after its commit raises: that one keeps its stack, to be told apart.
      const err =
        exception instanceof QueryRunnerAlreadyReleasedError ? exception : { message: (exception as Error)?.message };
      this.logger.warn({ reqId: request.id, err }, 'Database unavailable');
    } else if (status >= 500) {
      // Logged once, with the request's id; never sent to the client.
      this.logger.error({ err: exception, reqId: request.id }, 'Unhandled error');
    }
    if (reply.sent || reply.raw.headersSent) {
      reply.raw.end();
      return;
    }
    // Every 401 carries a challenge; routes that know more (the auth guard) set theirs.
    if (status === 401 && !reply.hasHeader('www-authenticate')) headers['WWW-Authenticate'] = bearerChallenge();
    // Every answer of the OAuth endpoints is not to be stored, those of a body never read included.
    if (oauth) Object.assign(headers, { 'Cache-Control': 'no-store', Pragma: 'no-cache' });
    void reply.status(status).headers(headers).send(body);
  }
}
