import { CanActivate, ExecutionContext, HttpStatus, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { sha256Hex } from '../crypto';
import { ConflictError, UnprocessableError, ValidationError } from '../errors/app-error';
import { PresetResponse } from '../http/preset-response';
import { IdempotencyClaims } from './idempotency-claims';
import { IdempotencyRepository, IdempotencyScope, UNREADABLE_ANSWER } from './idempotency.repository';

/**
 * What the guard needs of the authenticated caller (identity's `Principal` has it): the key is
 * scoped to the store and the token. Declared here so the kernel does not depend on identity.
 */
export interface IdempotencyCaller {
  storeId: number;
  tokenType: string;
  tokenId: number;
}

type CallerRequest = FastifyRequest & { principal?: IdempotencyCaller };

const HEADER = 'idempotency-key';
/** The 409 of a key whose request was answered under another `DELIVERY_SECRET` (IdempotencyRepository.find). */
export const ANSWER_UNREADABLE_MESSAGE = 'This idempotency key was already used; its answer cannot be replayed here.';

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
 * `Idempotency-Key` on the routes marked `@Idempotent()` (every authenticated POST
 * under `/v1`), scoped to the store and the token. The first request claims the key; a repeat with
 * the same route and body within 24 h gets the first response (an error too) with
 * `Idempotent-Replayed: true`; another body is 422; a repeat while the first is still running is
 * 409. {@link IdempotencyClaims} holds the claim while the request runs and stores the response or
 * frees the key once it is sent.
 *
 * A route guard, so it runs after the global AuthGuard has set `req.principal`. The body it hashes
 * is the parsed JSON or form; a multipart upload's parts are only read later (FileUploadInterceptor),
 * so for an upload the key covers the route alone: a replay costs no upload, and only a success is
 * kept (a retry with a corrected file runs).
 */
@Injectable()
export class IdempotencyGuard implements CanActivate {
  constructor(
    private readonly keys: IdempotencyRepository,
    private readonly claims: IdempotencyClaims,
  ) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const req = context.switchToHttp().getRequest<CallerRequest>();
    const key = req.headers[HEADER];
    // Synchronous without a key: Nest awaits nothing for a boolean.
    if (typeof key !== 'string' || !req.principal) return true;
    if (key.length === 0 || key.length > 255) {
      throw ValidationError.field('Idempotency-Key', 'Idempotency-Key must be 1 to 255 characters.');
    }
    return this.claim(req, req.principal, key);
  }

  private async claim(req: CallerRequest, principal: IdempotencyCaller, key: string): Promise<boolean> {
    const scope: IdempotencyScope = {
      storeId: principal.storeId,
      principalKey: `${principal.tokenType}:${principal.tokenId}`,
      key,
    };
    const requestHash = sha256Hex(`${req.method} ${req.originalUrl.split('?')[0]}\n${canonical(req.body ?? null)}`);
    // Twice at most: a record freed (or purged) between the two statements is
    // claimed again; should that fail too, the request runs as the first one.
    for (let tries = 0; tries < 2; tries++) {
      if (await this.claims.claim(req, scope, requestHash, !req.isMultipart())) return true;
      const record = await this.keys.find(scope);
      if (!record) continue;
      if (record.requestHash !== requestHash) {
        throw new UnprocessableError('Idempotency key reused with a different request.');
      }
      if (record.state !== 'completed') {
        throw new ConflictError('A request with this idempotency key is still in progress.');
      }
      if (record.responseBody === UNREADABLE_ANSWER) throw new ConflictError(ANSWER_UNREADABLE_MESSAGE);
      // complete() always stores the status; 201 is Nest's default for a POST.
      throw new PresetResponse(record.responseStatus ?? HttpStatus.CREATED, record.responseBody, {
        'Idempotent-Replayed': 'true',
      });
    }
    return true;
  }
}
