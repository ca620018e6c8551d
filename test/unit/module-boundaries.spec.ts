import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/*
 * The layering of CONTRIBUTING.md, checked on the import statements of src/ and examples/ (ESLint's
 * no-restricted-imports says the same on each file; this test sees the whole graph):
 * - the kernel (common/, database/, config/) imports no module and not the app that wires them;
 * - a module imports neither the app (app.module, app.factory, surfaces, entry points) nor the plugin API;
 * - an example plugin imports core only through the plugin API (src/plugins);
 * - outside a module (another module, the app, the CLI, the plugin API), the module is reached only
 *   through its public index.ts: `src/modules/<name>`, never a file under it.
 */
const root = resolve(__dirname, '../..');
const src = join(root, 'src');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** Every relative import of a file, resolved to a path under the repository (without extension). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:from|import\()\s*'(\.{1,2}\/[^']*)'/g)].map((m) => m[1]);
  return specifiers.map((s) => relative(root, resolve(dirname(file), s)));
}

type Rule = { from: (file: string) => boolean; forbidden: (target: string) => boolean; why: string };

const under =
  (...prefixes: string[]) =>
  (path: string) =>
    prefixes.some((p) => path === p || path.startsWith(`${p}/`));
const APP = [
  'src/app.module',
  'src/app.factory',
  'src/surfaces',
  'src/main',
  'src/server',
  'src/worker',
  'src/cluster',
];

/** The module a path lies in (`src/modules/<name>/…`), or null. */
function moduleOf(path: string): string | null {
  const m = /^src\/modules\/([^/]+)\//.exec(path);
  return m ? m[1] : null;
}

const RULES: Rule[] = [
  {
    from: under('src/common', 'src/database', 'src/config'),
    forbidden: under('src/modules', 'src/plugins', 'src/cli', ...APP),
    why: 'the kernel imports no module',
  },
  {
    from: under('src/modules'),
    forbidden: under('src/plugins', 'src/cli', ...APP),
    why: 'a module does not import the app',
  },
  {
    from: under('examples'),
    forbidden: (target) => target.startsWith('src/') && !under('src/plugins')(target),
    why: 'a plugin uses core through src/plugins only',
  },
  {
    from: under('src'),
    forbidden: (target) => {
      const m = /^src\/modules\/([^/]+)\/(.+)$/.exec(target);
      return m !== null && m[2] !== 'index';
    },
    why: "another module's files are reached through its index.ts",
  },
];

function violations(): string[] {
  const all = [...files(src), ...files(join(root, 'examples'))];
  const found: string[] = [];
  for (const file of all) {
    const path = relative(root, file);
    for (const rule of RULES) {
      if (!rule.from(path)) continue;
      for (const target of importsOf(file)) {
        if (rule.forbidden(target) && !(moduleOf(target) !== null && moduleOf(target) === moduleOf(path)))
          found.push(`${path} → ${target} (${rule.why})`);
      }
    }
  }
  return found;
}

describe('module boundaries', () => {
  it('has no upward import', () => {
    expect(violations()).toEqual([]);
  });

  it('sees the imports it checks (a check that reads nothing would always pass)', () => {
    const imports = importsOf(join(src, 'modules/webhooks/webhooks.module.ts'));
    expect(imports).toContain('src/common/idempotency/idempotency.module');
    expect(RULES[0].forbidden('src/modules/billing/billing.module')).toBe(true);
    expect(RULES[2].forbidden('src/modules/identity/scopes')).toBe(true);
    expect(RULES[2].forbidden('src/plugins')).toBe(false);
  });

  it('tells a deep import into another module from the public index', () => {
    expect(RULES[3].forbidden('src/modules/catalog/products/product.entity')).toBe(true);
    expect(RULES[3].forbidden('src/modules/catalog/index')).toBe(false);
    expect(RULES[3].forbidden('src/modules/catalog')).toBe(false);
    expect(importsOf(join(src, 'surfaces.ts'))).toContain('src/modules/billing');
  });
});
