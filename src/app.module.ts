import { DynamicModule, Module, Type } from '@nestjs/common';
import { APP_FILTER, RouterModule } from '@nestjs/core';
import { EventsModule } from './common/events/events.module';
import { AllExceptionsFilter } from './common/http/exception.filter';
import { OpenApiAmendments } from './common/http/openapi-amendments';
import { additionsOf, Contribution, Contributions, schemaOf } from './common/plugins/contributions';
import { Clock, CLOCK, systemClock } from './common/time';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { DatabaseConnection } from './database/database-connection';
import { DatabaseModule } from './database/database.module';
import { BUILT_IN_PAYMENT_GATEWAYS } from './modules/billing';
import { API_MODULES, CDN_MODULES, PAY_MODULES, surfaceRoutes, WEB_MODULES } from './surfaces';

export interface AppOptions {
  /** A controllable clock (tests). */
  clock?: Clock;
  /**
   * Modules added from outside core, usually made with `definePlugin` (src/plugins): scopes, storage
   * drivers, webhook event kinds, event listeners, notification channels, payment gateways, tables
   * (entities and migrations), and controllers mounted on the API surface like core's
   * (docs/extending.md).
   */
  plugins?: Array<Type | DynamicModule>;
}

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, connection: DatabaseConnection, options: AppOptions = {}): DynamicModule {
    const plugins = options.plugins ?? [];
    // Each plugin module exports its contributions with the extensions given as classes constructed.
    const contributionTokens = plugins.flatMap((plugin) => additionsOf(plugin)?.contributionsToken ?? []);
    return {
      module: AppModule,
      global: true,
      imports: [
        ConfigModule.forRoot(config),
        // The plugins' entities and migrations run with core's.
        DatabaseModule.forRoot(connection, schemaOf(plugins)),
        EventsModule,
        ...API_MODULES,
        ...WEB_MODULES,
        ...PAY_MODULES,
        ...CDN_MODULES,
        // Gateways register themselves for payment methods; they serve no routes of their own.
        ...BUILT_IN_PAYMENT_GATEWAYS,
        ...plugins,
        RouterModule.register(surfaceRoutes(config, plugins)),
      ],
      providers: [
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        { provide: CLOCK, useValue: options.clock ?? systemClock },
        {
          provide: Contributions,
          inject: contributionTokens,
          useFactory: (...lists: Contribution[][]) => new Contributions(lists.flat()),
        },
        OpenApiAmendments,
      ],
      exports: [CLOCK, Contributions, OpenApiAmendments],
    };
  }
}
