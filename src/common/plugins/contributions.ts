import type { DynamicModule, Type } from '@nestjs/common';

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
 * Everything the plugins of this app added, by point: one global provider, filled once by
 * `AppModule.forRoot` before any module is built, so a module reads its contributions in its
 * constructor (no order between `onModuleInit` hooks to rely on).
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

const attached = new WeakMap<object, readonly Contribution[]>();

/** Records what a plugin module adds, for `AppModule.forRoot` to collect (see {@link contributionsOf}). */
export function attachContributions(module: DynamicModule, contributions: readonly Contribution[]): void {
  attached.set(module, contributions);
}

/** What a plugin module added with `definePlugin`; none for a plain Nest module. */
export function contributionsOf(module: Type | DynamicModule): readonly Contribution[] {
  return attached.get(module) ?? [];
}
