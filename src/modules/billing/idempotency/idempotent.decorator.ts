import { applyDecorators, SetMetadata, UseInterceptors } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { IdempotencyInterceptor } from './idempotency.interceptor';

export const IDEMPOTENT_KEY = 'http:idempotent';

/**
 * `Idempotency-Key` on an authenticated POST under `/v1` (decisions §9). Declared per route rather
 * than as a global interceptor: any interceptor on a route costs every request on it an RxJS
 * pipeline and an async-context bind, and only these routes use it. Start-up fails when such a
 * POST lacks it (IdempotencyModule).
 */
export const Idempotent = (): MethodDecorator =>
  applyDecorators(
    SetMetadata(IDEMPOTENT_KEY, true),
    UseInterceptors(IdempotencyInterceptor),
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description: 'Up to 255 characters. A repeat with the same body within 24 h replays the first response (`Idempotent-Replayed: true`).',
    }),
  );
