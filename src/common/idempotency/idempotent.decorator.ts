import { applyDecorators, SetMetadata, UseGuards } from '@nestjs/common';
import { ApiIdempotencyKey } from '../http/api-docs';
import { IdempotencyGuard } from './idempotency.guard';

export const IDEMPOTENT_KEY = 'http:idempotent';

/**
 * `Idempotency-Key` on an authenticated POST under `/v1` (README, *Choices where the contract is silent*). A route guard rather than
 * an interceptor: Nest's interceptor chain (an RxJS pipeline and async-context binds) would cost
 * every request on the route, with a key or without; the guard returns at once without one.
 * Start-up fails when such a POST lacks it (RouteCatalogService).
 */
export const Idempotent = (): MethodDecorator =>
  applyDecorators(SetMetadata(IDEMPOTENT_KEY, true), UseGuards(IdempotencyGuard), ApiIdempotencyKey());
