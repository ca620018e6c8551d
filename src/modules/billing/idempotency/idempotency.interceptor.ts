import { CallHandler, ExecutionContext, HttpStatus, Injectable, NestInterceptor } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import type { FastifyReply } from 'fastify';
import { catchError, from, mergeMap, Observable, of, throwError } from 'rxjs';
import { sha256Hex } from '../../../common/crypto';
import { ConflictError, UnprocessableError, ValidationError } from '../../../common/errors/app-error';
import type { AuthenticatedRequest } from '../../identity/auth/auth.decorators';
import { IdempotencyRepository, IdempotencyScope } from './idempotency.repository';

const TTL_SECONDS = 24 * 60 * 60;
const HEADER = 'idempotency-key';

/** JSON with object keys sorted, so `{a,b}` and `{b,a}` are the same request. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * `Idempotency-Key` on the routes marked `@Idempotent()` (decisions §9: every authenticated POST
 * under `/v1`), scoped to the store and the token. The first request claims the key; a repeat with
 * the same route and body within 24 h gets the stored response with `Idempotent-Replayed: true`;
 * another body is 422; a repeat while the first is still running is 409. Only successful responses
 * are kept: after an error nothing was committed, so the key is freed for a retry.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly keys: IdempotencyRepository,
    private readonly reflector: Reflector,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const key = req.headers[HEADER];
    if (typeof key !== 'string' || !req.principal) return next.handle();
    if (key.length === 0 || key.length > 255) {
      return throwError(() => ValidationError.field('Idempotency-Key', 'Idempotency-Key must be 1 to 255 characters.'));
    }

    const scope: IdempotencyScope = {
      storeId: req.principal.storeId,
      principalKey: `${req.principal.tokenType}:${req.principal.tokenId}`,
      key,
    };
    const requestHash = sha256Hex(`${req.method} ${req.originalUrl.split('?')[0]}\n${canonical(req.body ?? null)}`);
    const res = context.switchToHttp().getResponse<FastifyReply>();
    // Expired keys are also taken over on reuse; this sweep only keeps the table small.
    if (Math.random() < 0.01) void this.keys.purgeExpired(TTL_SECONDS).catch(() => undefined);
    const status = this.reflector.get<number | undefined>(HTTP_CODE_METADATA, context.getHandler()) ?? HttpStatus.CREATED;

    return from(this.keys.claim(scope, requestHash, TTL_SECONDS)).pipe(
      mergeMap((claimed) => {
        if (claimed) return this.run(scope, status, next);
        return from(this.keys.find(scope)).pipe(
          mergeMap((record) => {
            if (!record) return this.run(scope, status, next);
            if (record.requestHash !== requestHash) {
              throw new UnprocessableError('Idempotency key reused with a different request.');
            }
            if (record.state !== 'completed') {
              throw new ConflictError('A request with this idempotency key is still in progress.');
            }
            res.header('Idempotent-Replayed', 'true');
            return of(record.responseBody);
          }),
        );
      }),
    );
  }

  private run(scope: IdempotencyScope, status: number, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      mergeMap((body) => from(this.keys.complete(scope, status, body ?? null).then(() => body))),
      catchError((error: unknown) => from(this.keys.release(scope)).pipe(mergeMap(() => throwError(() => error)))),
    );
  }
}
