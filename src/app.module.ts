import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, RouterModule } from '@nestjs/core';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { AllExceptionsFilter } from './common/http/exception.filter';
import { Clock, CLOCK, systemClock } from './common/time';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { DatabaseConnection } from './database/database-connection';
import { DatabaseModule } from './database/database.module';
import { BUILT_IN_PAYMENT_GATEWAYS } from './modules/billing/payments/gateways';
import { API_MODULES, CDN_MODULES, PAY_MODULES, surfaceRoutes, WEB_MODULES } from './surfaces';

/** Seams for tests: a controllable clock. */
export interface AppOptions {
  clock?: Clock;
}

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, connection: DatabaseConnection, options: AppOptions = {}): DynamicModule {
    return {
      module: AppModule,
      global: true,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule.forRoot(connection),
        EventEmitterModule.forRoot({ wildcard: false, maxListeners: 100 }),
        ...API_MODULES,
        ...WEB_MODULES,
        ...PAY_MODULES,
        ...CDN_MODULES,
        // Gateways register themselves for payment methods; they serve no routes of their own.
        ...BUILT_IN_PAYMENT_GATEWAYS,
        RouterModule.register(surfaceRoutes(config)),
      ],
      providers: [
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        { provide: CLOCK, useValue: options.clock ?? systemClock },
      ],
      exports: [CLOCK],
    };
  }
}
