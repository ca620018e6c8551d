import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { isPassingAnswer } from '../http/exception.filter';
import { IdempotencyClaim, IdempotencyRepository, IdempotencyScope } from './idempotency.repository';

const TTL_SECONDS = 24 * 60 * 60;

interface Held {
  claim: IdempotencyClaim;
  renewal: NodeJS.Timeout;
  /** Whether the key's request hash covers the whole request (not so for an upload's parts). */
  coversBody: boolean;
}

/**
 * The keys {@link IdempotencyGuard} claimed, by request, and the one Fastify `onSend` hook that
 * settles them once the response is known. The first response is stored for replays before its
 * bytes go out (so an immediate retry already sees it), an error as well as a success: a refund
 * refused as `Only approved orders can be refunded.` is refused again by its key, even once the
 * order is approved. Answers that say "try again" free the key instead (a 5xx, a 429, a 409 of work
 * still in progress: {@link isPassingAnswer}), as does an upload's error, whose key does not cover
 * the file that a retry corrects.
 *
 * A claim is a lease of {@link leaseSeconds}, renewed every third of it while its request runs
 * (until its answer is settled, whether or not the client still waits for it). If the process stops mid-request, nothing settles the key:
 * once the lease lapses, a retry of the same request takes it over and runs (README, *Choices
 * where the contract is silent*); until then it is 409, as any request still in flight.
 *
 * A hook rather than an interceptor: on a route with any interceptor Nest wraps every step in an
 * `AsyncResource.bind` and an RxJS pipeline, which every request paid, with a key or without. The
 * hook costs a request without a claim one WeakMap lookup.
 */
@Injectable()
export class IdempotencyClaims implements OnModuleInit {
  /** How long a claim holds its key without word from its request. */
  leaseSeconds = 60;

  private readonly held = new WeakMap<object, Held>();

  constructor(
    private readonly keys: IdempotencyRepository,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  /**
   * Claims the key for this request (true), or finds it held by a record that answers for it
   * (false: the guard replays it or refuses). Expired records are also taken over on reuse; the
   * occasional sweep only keeps the table small.
   */
  async claim(request: object, scope: IdempotencyScope, requestHash: string, coversBody = true): Promise<boolean> {
    if (Math.random() < 0.01) void this.keys.purgeExpired(TTL_SECONDS).catch(() => undefined);
    const claim: IdempotencyClaim = { ...scope, leaseId: randomUUID() };
    if (!(await this.keys.claim(claim, requestHash, TTL_SECONDS, this.leaseSeconds))) return false;
    const leaseSeconds = this.leaseSeconds;
    // Renewed until the answer is settled, also after the client went away: the handler is still
    // running, and a retry must not run beside it. A renewal that fails lets the lease lapse early;
    // none goes on past the key's lifetime, should an answer never come.
    let renewals = Math.floor((TTL_SECONDS * 3) / leaseSeconds);
    const renewal = setInterval(
      () => {
        if (--renewals < 0) return clearInterval(renewal);
        void this.keys.renew(claim, leaseSeconds).catch(() => undefined);
      },
      (leaseSeconds * 1000) / 3,
    ).unref();
    this.held.set(request, { claim, renewal, coversBody });
    return true;
  }

  /** Module init runs inside `app.init()`, before Fastify is ready: hooks may still be added. */
  onModuleInit(): void {
    const adapter = this.adapterHost.httpAdapter;
    // A testing module without an HTTP server has no responses to settle.
    if (adapter?.getType() !== 'fastify') return;
    const fastify = adapter.getInstance<FastifyInstance>();
    fastify.addHook('onSend', (request, reply, payload, done) => {
      const held = this.held.get(request);
      if (held === undefined) return done(null, payload);
      // Settled once: if settling fails, the error response comes through this hook again.
      this.held.delete(request);
      // Renewed until settled: storing the answer is still part of the request.
      const status = reply.statusCode;
      const kept = status < 400 || (held.coversBody && !isPassingAnswer(request, status));
      this.settle(held.claim, status, kept, payload)
        .finally(() => clearInterval(held.renewal))
        .then(
          () => done(null, payload),
          (error: Error) => done(error),
        );
    });
  }

  /** Stores the answer for replays, or frees the key when it is not to be kept or cannot be replayed. */
  private async settle(claim: IdempotencyClaim, status: number, kept: boolean, payload: unknown): Promise<void> {
    const body = kept ? sentJson(payload) : undefined;
    if (body === undefined) return this.keys.release(claim);
    try {
      await this.keys.complete(claim, status, body);
    } catch (error) {
      await this.keys.release(claim);
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
