import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppError, TooManyRequestsError } from '../errors/app-error';

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

/** body-parser and multer report their failures with these markers. */
function fromMiddleware(error: unknown): { status: number; message: string } | undefined {
  const e = error as { type?: string; status?: number; code?: string };
  if (e?.type === 'entity.parse.failed') return { status: 400, message: 'Malformed JSON body.' };
  if (e?.type === 'entity.too.large' || e?.code === 'LIMIT_FILE_SIZE') return { status: 413, message: 'Payload too large.' };
  if (e?.type === 'encoding.unsupported' || e?.type === 'charset.unsupported') {
    return { status: 415, message: 'Unsupported media type.' };
  }
  if (typeof e?.type === 'string' && typeof e.status === 'number' && e.status >= 400 && e.status < 500) {
    return { status: e.status, message: FRAMEWORK_MESSAGES[e.status] ?? 'Bad request.' };
  }
  return undefined;
}

export function toErrorResponse(exception: unknown): { status: number; body: ErrorBody; headers: Record<string, string> } {
  if (exception instanceof AppError) {
    const headers: Record<string, string> = {};
    if (exception instanceof TooManyRequestsError) headers['Retry-After'] = String(exception.retryAfterSeconds);
    return {
      status: exception.httpStatus,
      body: { status: 'error', message: exception.message, ...exception.extra },
      headers,
    };
  }
  const middleware = fromMiddleware(exception);
  if (middleware) return { status: middleware.status, body: { status: 'error', message: middleware.message }, headers: {} };
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    if (status < 500) {
      const cause = fromMiddleware(exception.cause);
      const message = cause?.message ?? FRAMEWORK_MESSAGES[status] ?? 'Bad request.';
      return { status: cause?.status ?? status, body: { status: 'error', message }, headers: {} };
    }
  }
  return { status: 500, body: { status: 'error', message: 'Internal server error.' }, headers: {} };
}

/** The one place where every error becomes the contract's error body (spec §7, decisions §5). */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('HTTP');

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const response = ctx.getResponse<Response>();
    const request = ctx.getRequest<Request>();
    const { status, body, headers } = toErrorResponse(exception);
    if (status >= 500) {
      // Logged once, with the request id the request logging put on the request; never sent to the client.
      this.logger.error({ err: exception, reqId: (request as { id?: unknown }).id }, 'Unhandled error');
    }
    if (response.headersSent) {
      response.end();
      return;
    }
    response.status(status).set(headers).json(body);
  }
}
