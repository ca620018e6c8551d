import { Module } from '@nestjs/common';
import { IdempotencyClaims } from './idempotency-claims';
import { IdempotencyRepository } from './idempotency.repository';

/**
 * Imported by every module whose controllers use `@Idempotent()`: its guard is resolved in the
 * controller's module and needs both providers. The one `onSend` hook is added by
 * IdempotencyClaims, a single instance however many modules import this one.
 */
@Module({
  providers: [IdempotencyRepository, IdempotencyClaims],
  exports: [IdempotencyRepository, IdempotencyClaims],
})
export class IdempotencyModule {}
