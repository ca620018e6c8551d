import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { IdempotencyRepository, IdempotencyScope } from './idempotency.repository';

/**
 * The keys {@link IdempotencyGuard} claimed, by request, and the one Fastify `onSend` hook that
 * settles them once the response is known: a success is stored for replays before its bytes go
 * out (so an immediate retry already sees it), anything else frees the key. Only successes are
 * kept: after an error nothing was committed, so the client may retry with the same key.
 *
 * A hook rather than an interceptor: on a route with any interceptor Nest wraps every step in an
 * `AsyncResource.bind` and an RxJS pipeline, which every request paid, with a key or without. The
 * hook costs a request without a claim one WeakMap lookup.
 */
@Injectable()
export class IdempotencyClaims implements OnModuleInit {
  private readonly claims = new WeakMap<object, IdempotencyScope>();

  constructor(
    private readonly keys: IdempotencyRepository,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  /** Called by the guard once the request holds the key. */
  hold(request: object, scope: IdempotencyScope): void {
    this.claims.set(request, scope);
  }

  /** Module init runs inside `app.init()`, before Fastify is ready: hooks may still be added. */
  onModuleInit(): void {
    const adapter = this.adapterHost.httpAdapter;
    // A testing module without an HTTP server has no responses to settle.
    if (adapter?.getType() !== 'fastify') return;
    const fastify = adapter.getInstance<FastifyInstance>();
    fastify.addHook('onSend', (request, reply, payload, done) => {
      const scope = this.claims.get(request);
      if (scope === undefined) return done(null, payload);
      // Settled once: if settling fails, the error response comes through this hook again.
      this.claims.delete(request);
      this.settle(scope, reply.statusCode, payload).then(
        () => done(null, payload),
        (error: Error) => done(error),
      );
    });
  }

  private async settle(scope: IdempotencyScope, status: number, payload: unknown): Promise<void> {
    const body = status < 400 ? sentJson(payload) : undefined;
    if (body === undefined) return this.keys.release(scope);
    try {
      await this.keys.complete(scope, status, body);
    } catch (error) {
      await this.keys.release(scope);
      throw error;
    }
  }
}

/**
 * The body as the client receives it, parsed back from the serialised payload; `undefined` when it
 * is not JSON (a stream, text), which a replay could not reproduce: such a response is not kept.
 */
function sentJson(payload: unknown): unknown {
  if (payload === undefined || payload === null || payload === '') return null;
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return undefined;
  try {
    return JSON.parse(payload.toString()) as unknown;
  } catch {
    return undefined;
  }
}
