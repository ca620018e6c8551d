import { DynamicModule, ForwardReference, Provider, Type } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { DomainEvent } from '../common/events/domain-event';
import { DomainEvents, EventTypes } from '../common/events/domain-events';
import { IdempotencyModule } from '../common/idempotency/idempotency.module';
import type { QueueOptions } from '../common/jobs/job-queue';
import { attachContributions, Contribution, ExtensionPoint } from '../common/plugins/contributions';
import type { PaymentGateway } from '../modules/billing/payments/payment-gateway';
import { PAYMENT_GATEWAYS } from '../modules/billing/payments/payment-gateway.registry';
import { STORAGE_DRIVERS, StorageDriver } from '../modules/catalog/files/storage/storage-driver';
import { SCOPE_EXTENSIONS } from '../modules/identity/scopes/scope-registry';
import { NOTIFICATION_CHANNELS, NotificationChannel } from '../modules/notifications/channels/notification-channel';
import { WEBHOOK_EVENT_KINDS, WebhookEventKind } from '../modules/webhooks/event-kinds/webhook-event-kinds';

/** What an event listener may use besides the event: the app's providers. */
export interface ListenerContext {
  /** A provider of the app (`get(OrderEventPayloads)`), resolved across modules. */
  get<T>(token: abstract new (...args: never[]) => T): T;
}

/** An after-commit listener (common/events): run from a durable job, retried when it throws. */
export interface EventListenerDefinition {
  /** Names the listener's durable queue (`event:<name>`): keep it stable across releases. */
  name: string;
  /** Domain event types (`order.approved`), or `'*'`. */
  types: EventTypes;
  /** Must be idempotent: a retry gets the same event (use `event.id`). */
  handle(event: DomainEvent, context: ListenerContext): Promise<void>;
  options?: QueueOptions;
}

export interface PluginDefinition {
  /** Unique among the plugins of the app: names the Nest module and appears in start-up errors. */
  name: string;
  imports?: Array<Type | DynamicModule | Promise<DynamicModule> | ForwardReference>;
  /** Mounted on the API surface (`{base_url}`), behind the global guard: declare `@RequireScopes()`. */
  controllers?: Type[];
  providers?: Provider[];
  exports?: Array<string | symbol | Provider | Type | DynamicModule>;
  /** `{ 'chat.write': 'Post to the store's chat.' }`: grantable on keys and OAuth, listed by `GET /v1/scopes`. */
  scopes?: Record<string, string>;
  /** Chosen with `STORAGE_DRIVER=<name>`. */
  storageDrivers?: StorageDriver[];
  /** Kinds webhooks may subscribe to, with the domain events that produce them and their payload. */
  webhookEventKinds?: WebhookEventKind[];
  eventListeners?: EventListenerDefinition[];
  /** Channels the customer messages of decisions §12 go out on besides email (SMS, chat). */
  notificationChannels?: NotificationChannel[];
  /**
   * Payment gateways registered for their methods (a gateway that needs injected services is a
   * provider that calls `PaymentGatewayRegistry.register` in `onModuleInit` instead).
   */
  paymentGateways?: PaymentGateway[];
}

/** The plugin names of this process: one module class per name. */
const pluginModules = new Map<string, Type>();

function moduleClassFor(name: string): Type {
  let existing = pluginModules.get(name);
  if (!existing) {
    // A class per plugin, named after it: Nest tells modules apart by class.
    existing = class {};
    Object.defineProperty(existing, 'name', { value: `Plugin(${name})` });
    pluginModules.set(name, existing);
  }
  return existing;
}

/**
 * The one way to extend the service from outside core: a Nest module that adds what it lists.
 * Pass it to `createApp(config, connection, { plugins: [...] })` (or `AppModule.forRoot`).
 *
 * ```ts
 * export const ChatPlugin = { register: (opts: ChatOptions) => definePlugin({ name: 'chat', scopes: {...}, ... }) };
 * ```
 */
export function definePlugin(definition: PluginDefinition): DynamicModule {
  const { name } = definition;
  if (!/^[a-z][a-z0-9-]*$/.test(name))
    throw new Error(`Plugin name ${JSON.stringify(name)}: lower case letters, digits and dashes`);
  const listeners = definition.eventListeners ?? [];
  const module: DynamicModule = {
    module: moduleClassFor(name),
    // Every authenticated POST under /v1 takes an Idempotency-Key (`@Idempotent()` needs this module).
    imports: [IdempotencyModule, ...(definition.imports ?? [])],
    controllers: definition.controllers ?? [],
    providers: [
      ...(definition.providers ?? []),
      ...(listeners.length
        ? [
            {
              provide: `plugin:${name}:listeners`,
              inject: [DomainEvents, ModuleRef],
              // Registered while the app is built, before the job queue starts.
              useFactory: (events: DomainEvents, moduleRef: ModuleRef) => {
                const context: ListenerContext = { get: (token) => moduleRef.get(token, { strict: false }) };
                for (const listener of listeners) {
                  events.afterCommit(
                    listener.name,
                    listener.types,
                    (event) => listener.handle(event, context),
                    listener.options,
                  );
                }
                return listeners.map((l) => l.name);
              },
            },
          ]
        : []),
    ],
    exports: definition.exports ?? [],
  };
  const contributions: Contribution[] = [
    ...Object.entries(definition.scopes ?? {}).map(([scope, description]) =>
      contribution(SCOPE_EXTENSIONS, { scope, description }, name),
    ),
    ...(definition.storageDrivers ?? []).map((driver) => contribution(STORAGE_DRIVERS, driver, name)),
    ...(definition.webhookEventKinds ?? []).map((kind) => contribution(WEBHOOK_EVENT_KINDS, kind, name)),
    ...(definition.notificationChannels ?? []).map((channel) => contribution(NOTIFICATION_CHANNELS, channel, name)),
    ...(definition.paymentGateways ?? []).map((gateway) => contribution(PAYMENT_GATEWAYS, gateway, name)),
  ];
  attachContributions(module, contributions);
  return module;
}

function contribution<T>(point: ExtensionPoint<T>, value: T, plugin: string): Contribution {
  return { point, value, plugin } as Contribution;
}
