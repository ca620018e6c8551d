import 'reflect-metadata';
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

/*
 * Each module's index.ts re-exports files that import other modules' index.ts, and some of those
 * import back (billing ⇄ catalog, billing ⇄ webhooks). Node hands a file that is still loading to
 * whoever asks for it half-filled, so a Nest module or a constructor's parameter type read while
 * classes are being declared can be `undefined`, and the app fails to boot from one entry point
 * but not another. Each barrel is loaded first in a fresh module registry here, and every Nest
 * module reachable from what the barrels export is checked for a hole.
 */
const modulesDir = resolve(__dirname, '../../src/modules');
const barrels = readdirSync(modulesDir, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

type AnyClass = abstract new (...args: never[]) => unknown;

function isForwardRef(x: unknown): boolean {
  return typeof x === 'object' && x !== null && 'forwardRef' in x;
}

/** The holes in the Nest module graph reachable from `roots`, as readable paths. */
function holes(roots: unknown[]): string[] {
  const found: string[] = [];
  const seen = new Set<unknown>();
  const checkClass = (cls: AnyClass, where: string) => {
    const params: unknown[] = Reflect.getMetadata('design:paramtypes', cls) ?? [];
    const injected: { index: number }[] = Reflect.getMetadata('self:paramtypes', cls) ?? [];
    params.forEach((p, i) => {
      if (p === undefined && !injected.some((x) => x.index === i)) found.push(`${where} → ${cls.name}(#${i})`);
    });
  };
  const visit = (mod: unknown, where: string) => {
    if (mod === undefined) {
      found.push(`${where} → undefined`);
      return;
    }
    if (seen.has(mod) || isForwardRef(mod) || mod instanceof Promise) return;
    seen.add(mod);
    const dynamic =
      typeof mod === 'object' && mod !== null && 'module' in mod ? (mod as Record<string, unknown>) : null;
    const cls = (dynamic ? dynamic.module : mod) as AnyClass;
    const name = `${where} → ${cls?.name ?? '?'}`;
    const meta = (key: string): unknown[] => [
      ...((Reflect.getMetadata(key, cls) as unknown[] | undefined) ?? []),
      ...(((dynamic?.[key] as unknown[] | undefined) ?? []) as unknown[]),
    ];
    for (const imported of meta('imports')) visit(imported, name);
    for (const provider of [...meta('providers'), ...meta('controllers')]) {
      if (provider === undefined) found.push(`${name} → undefined provider`);
      else if (typeof provider === 'function') checkClass(provider as AnyClass, name);
      else if (typeof provider === 'object' && provider && 'useClass' in provider)
        checkClass((provider as { useClass: AnyClass }).useClass, name);
    }
  };
  for (const root of roots) visit(root, 'index');
  return found;
}

describe('module barrels', () => {
  it('finds every module', () => {
    expect(barrels).toEqual(expect.arrayContaining(['billing', 'catalog', 'identity', 'webhooks']));
  });

  it.each(barrels)('load whole when %s/index.ts is the first one loaded', (first) => {
    let exported: unknown[] = [];
    jest.isolateModules(() => {
      const all = [first, ...barrels.filter((b) => b !== first)].map(
        // A fresh registry per order of loading is what is under test; `import()` would share one.
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        (b) => require(join(modulesDir, b)) as Record<string, unknown>,
      );
      exported = all.flatMap((m) => Object.values(m));
    });
    const nestModules = exported.filter(
      (x) => typeof x === 'function' && Reflect.getMetadataKeys(x).some((k) => k === 'imports' || k === 'providers'),
    );
    expect(nestModules.length).toBeGreaterThan(5);
    expect(holes(nestModules)).toEqual([]);
    expect(exported.filter((x) => x === undefined)).toEqual([]);
  });
});
