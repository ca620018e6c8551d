import { Module, OnModuleInit, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryModule, DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { PUBLIC_KEY } from '../../identity/auth/auth.decorators';
import { IDEMPOTENT_KEY } from './idempotent.decorator';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IdempotencyRepository } from './idempotency.repository';

/**
 * Imported by every module whose controllers use `@Idempotent()` (the interceptor is resolved in
 * the controller's module). Start-up fails when an authenticated POST under `/v1` forgot it.
 */
@Module({
  imports: [DiscoveryModule],
  providers: [IdempotencyRepository, IdempotencyInterceptor],
  exports: [IdempotencyRepository, IdempotencyInterceptor],
})
export class IdempotencyModule implements OnModuleInit {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  onModuleInit(): void {
    const missing: string[] = [];
    for (const wrapper of this.discovery.getControllers()) {
      const controller = wrapper.metatype as (new (...args: never[]) => unknown) | undefined;
      if (!controller || !wrapper.instance) continue;
      const classPaths = [Reflect.getMetadata(PATH_METADATA, controller) as string | string[] | undefined].flat();
      if (!classPaths.some((path) => path === 'v1' || path?.startsWith('v1/'))) continue;
      const prototype = Object.getPrototypeOf(wrapper.instance) as Record<string, unknown>;
      for (const name of this.scanner.getAllMethodNames(prototype)) {
        const handler = prototype[name] as (...args: unknown[]) => unknown;
        if (Reflect.getMetadata(METHOD_METADATA, handler) !== RequestMethod.POST) continue;
        if (this.reflector.getAllAndOverride<boolean>(PUBLIC_KEY, [handler, controller])) continue;
        if (!this.reflector.get<boolean>(IDEMPOTENT_KEY, handler)) missing.push(`${controller.name}.${name}`);
      }
    }
    if (missing.length) throw new Error(`POST routes under /v1 without @Idempotent(): ${missing.join(', ')}`);
  }
}
