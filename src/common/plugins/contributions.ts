import type { DynamicModule, Type } from '@nestjs/common';
import type { MigrationInterface } from 'typeorm';

/**
 * A named place where plugins add things of type `T` (scopes, storage drivers, webhook event kinds,
 * …). The module that reads the contributions declares its point next to its own code; the plugin
 * API (src/plugins) maps the typed fields of `definePlugin` onto the points.
 */
export class ExtensionPoint<T> {
  /** Carries `T` for the compiler only. */
  declare readonly __type?: T;

  constructor(readonly name: string) {}
}

export interface Contribution<T = unknown> {
  readonly point: ExtensionPoint<T>;
  readonly value: T;
  /** The plugin that added it, for error messages. */
  readonly plugin: string;
}

/**
 * Everything the plugins of this app added, by point: one global provider, built by
 * `AppModule.forRoot` from each plugin's resolved contributions before any module that reads them,
 * so a module reads its contributions in its constructor (no order between `onModuleInit` hooks to
 * rely on).
 */
export class Contributions {
  constructor(private readonly list: readonly Contribution[] = []) {}

  of<T>(point: ExtensionPoint<T>): T[] {
    return this.list.filter((c) => c.point === point).map((c) => c.value as T);
  }

  /** The contributions of `point` with the name of the plugin of each. */
  entries<T>(point: ExtensionPoint<T>): Array<{ value: T; plugin: string }> {
    return this.list.filter((c) => c.point === point).map((c) => ({ value: c.value as T, plugin: c.plugin }));
  }
}

/** A migration class, as TypeORM runs it. */
export type MigrationClass = new () => MigrationInterface;

/** The tables a plugin keeps: its entities and the migrations that create them. */
export interface PluginSchema {
  entities: readonly Type[];
  migrations: readonly MigrationClass[];
}

export const NO_PLUGIN_SCHEMA: PluginSchema = { entities: [], migrations: [] };

/** What a plugin module adds, as `definePlugin` records it. */
export interface PluginAdditions {
  /**
   * The provider token, exported by the plugin module, whose value is the plugin's contributions
   * with every extension given as a class resolved to its instance (constructed by Nest in the
   * plugin's module, so it is injected with the plugin's providers).
   */
  contributionsToken: string;
  /** The extensions given as objects: known without building the app. */
  contributions: readonly Contribution[];
  schema: PluginSchema;
}

const attached = new WeakMap<object, PluginAdditions>();

/** Records what a plugin module adds, for `AppModule.forRoot` and the schema tools to collect. */
export function attachAdditions(module: DynamicModule, additions: PluginAdditions): void {
  attached.set(module, additions);
}

/** What a plugin module made with `definePlugin` adds; nothing for a plain Nest module. */
export function additionsOf(module: Type | DynamicModule): PluginAdditions | undefined {
  return attached.get(module);
}

/** The contributions a plugin gave as objects (those given as classes exist only in the app). */
export function contributionsOf(module: Type | DynamicModule): readonly Contribution[] {
  return additionsOf(module)?.contributions ?? [];
}

/**
 * The entities and migrations of `plugins`, beside core's: the app's data source, the migration
 * runner (`runMigrations`), the operator CLI and the tests all run them with core's.
 */
export function schemaOf(plugins: ReadonlyArray<Type | DynamicModule>): PluginSchema {
  const schemas = plugins.map((plugin) => additionsOf(plugin)?.schema ?? NO_PLUGIN_SCHEMA);
  return {
    entities: schemas.flatMap((schema) => schema.entities),
    migrations: schemas.flatMap((schema) => schema.migrations),
  };
}
