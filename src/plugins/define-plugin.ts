import { DynamicModule, ForwardReference, Provider, Type } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { DomainEvent } from '../common/events/domain-event';
import { DomainEvents, EventTypes } from '../common/events/domain-events';
import { IdempotencyModule } from '../common/idempotency/idempotency.module';
import type { QueueOptions } from '../common/jobs/job-queue';
import { attachAdditions, Contribution, ExtensionPoint, type MigrationClass } from '../common/plugins/contributions';
import { CHECKOUT_RULES, type CheckoutRule, PAYMENT_GATEWAYS, type PaymentGateway } from '../modules/billing';
import { STORAGE_DRIVERS, StorageDriver } from '../modules/catalog';
import { SCOPE_EXTENSIONS } from '../modules/identity';
import { NOTIFICATION_CHANNELS, NotificationChannel } from '../modules/notifications';
import { WEBHOOK_EVENT_KINDS, WebhookEventKind } from '../modules/webhooks';
import { PluginCommonModule } from './plugin-common.module';

/**
 * An extension of kind `T`: an object, or a class that implements `T`. A class is constructed by
 * Nest in the plugin's module, so its constructor receives the plugin's own providers and what the
 * plugin API offers (`PluginCommonModule`: `DataSource`, `Transactions`, `DomainEvents`,
 * `JobQueue`, `OrderEventPayloads`, `APP_CONFIG`, …), the same way for every kind.
 */
export type Extension<T> = T | Type<T>;

/**
 * What an event listener object may use besides the event: the app's providers.
 * @deprecated A listener that needs providers is a class (`eventListeners: [MyListener]`) that
 * receives them in its constructor, like every extension kind.
 */
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
  storageDrivers?: Array<Extension<StorageDriver>>;
  /** Kinds webhooks may subscribe to, with the domain events that produce them and their payload. */
  webhookEventKinds?: Array<Extension<WebhookEventKind>>;
  eventListeners?: Array<Extension<EventListenerDefinition>>;
  /** Channels the customer messages (README, *Customer emails*) go out on besides email (SMS, chat). */
  notificationChannels?: Array<Extension<NotificationChannel>>;
  /** Payment gateways registered for their methods. */
  paymentGateways?: Array<Extension<PaymentGateway>>;
  /** Rules every new order must pass (`POST /v1/orders`); a rule throws to refuse it. */
  checkoutRules?: Array<Extension<CheckoutRule>>;
  /**
   * The plugin's own tables: its TypeORM entity classes, and the migrations that create and change
   * them (made with `npm run migration:generate -- <Name> --plugin <folder>`). They run with core's,
   * in timestamp order, wherever the plugin is passed: the app, `runMigrations`, the CLI, the tests.
   */
  entities?: Type[];
  migrations?: MigrationClass[];
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
  /** An extension object as it is, a class as a slot that Nest fills with its instance. */
  const slot = <T>(extension: Extension<T>): T | ClassSlot =>
    isClass(extension) ? new ClassSlot(extension) : extension;
  const listeners = (definition.eventListeners ?? []).map(slot);
  const pending: Array<{ point: ExtensionPoint<unknown>; value: unknown }> = [
    ...Object.entries(definition.scopes ?? {}).map(([scope, description]) => ({
      point: SCOPE_EXTENSIONS as ExtensionPoint<unknown>,
      value: { scope, description },
    })),
    ...at(STORAGE_DRIVERS, (definition.storageDrivers ?? []).map(slot)),
    ...at(WEBHOOK_EVENT_KINDS, (definition.webhookEventKinds ?? []).map(slot)),
    ...at(NOTIFICATION_CHANNELS, (definition.notificationChannels ?? []).map(slot)),
    ...at(PAYMENT_GATEWAYS, (definition.paymentGateways ?? []).map(slot)),
    ...at(CHECKOUT_RULES, (definition.checkoutRules ?? []).map(slot)),
  ];
  const contributionClasses = classesOf(pending.map(({ value }) => value));
  const listenerClasses = classesOf(listeners);
  const contributionsToken = `plugin:${name}:contributions`;
  const module: DynamicModule = {
    module: moduleClassFor(name),
    // Every authenticated POST under /v1 takes an Idempotency-Key (`@Idempotent()` needs this module);
    // PluginCommonModule offers the core services a plugin's classes may inject.
    imports: [IdempotencyModule, PluginCommonModule, ...(definition.imports ?? [])],
    controllers: definition.controllers ?? [],
    providers: [
      ...(definition.providers ?? []),
      ...new Set([...contributionClasses, ...listenerClasses]),
      {
        // The contributions with each class constructed; `AppModule.forRoot` builds `Contributions`
        // from this, so the registries that read it see every extension in their constructor.
        provide: contributionsToken,
        inject: contributionClasses,
        useFactory: (...instances: unknown[]): Contribution[] =>
          pending.map(({ point, value }) => ({
            point,
            value: resolveSlot(value, contributionClasses, instances),
            plugin: name,
          })),
      },
      ...(listeners.length
        ? [
            {
              provide: `plugin:${name}:listeners`,
              inject: [DomainEvents, ModuleRef, ...listenerClasses],
              // Registered while the app is built, before the job queue starts.
              useFactory: (events: DomainEvents, moduleRef: ModuleRef, ...instances: unknown[]) => {
                const context: ListenerContext = { get: (token) => moduleRef.get(token, { strict: false }) };
                const resolved = listeners.map(
                  (l) => resolveSlot(l, listenerClasses, instances) as EventListenerDefinition,
                );
                for (const listener of resolved) {
                  events.afterCommit(
                    listener.name,
                    listener.types,
                    (event) => listener.handle(event, context),
                    listener.options,
                  );
                }
                return resolved.map((l) => l.name);
              },
            },
          ]
        : []),
    ],
    exports: [...(definition.exports ?? []), contributionsToken],
  };
  attachAdditions(module, {
    contributionsToken,
    // The extensions given as objects, known without building the app (unit tests read them).
    contributions: pending
      .filter(({ value }) => !(value instanceof ClassSlot))
      .map(({ point, value }) => ({ point, value, plugin: name })),
    schema: { entities: definition.entities ?? [], migrations: definition.migrations ?? [] },
  });
  return module;
}

/** Stands for an extension given as a class until Nest has constructed it. */
class ClassSlot {
  constructor(readonly type: Type) {}
}

/** The classes among `values`, each once: the providers a factory injects. */
function classesOf(values: readonly unknown[]): Type[] {
  return [...new Set(values.flatMap((value) => (value instanceof ClassSlot ? [value.type] : [])))];
}

/** `value`, or the instance of its class (`instances` are those of `classes`, in order). */
function resolveSlot(value: unknown, classes: readonly Type[], instances: readonly unknown[]): unknown {
  return value instanceof ClassSlot ? instances[classes.indexOf(value.type)] : value;
}

function at<T>(point: ExtensionPoint<T>, values: unknown[]): Array<{ point: ExtensionPoint<unknown>; value: unknown }> {
  return values.map((value) => ({ point: point as ExtensionPoint<unknown>, value }));
}

function isClass<T>(extension: Extension<T>): extension is Type<T> {
  return typeof extension === 'function';
}
