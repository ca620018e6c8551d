import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/*
 * The layering of CONTRIBUTING.md, checked on the import statements of src/ and examples/ (ESLint's
 * no-restricted-imports says the same on each file; this test sees the whole graph):
 * - the kernel (common/, database/, config/) imports no module and not the app that wires them;
 * - a module imports neither the app (app.module, app.factory, surfaces, entry points) nor the plugin API;
 * - an example plugin imports core only through the plugin API (src/plugins).
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
];

function violations(): string[] {
  const all = [...files(src), ...files(join(root, 'examples'))];
  const found: string[] = [];
  for (const file of all) {
    const path = relative(root, file);
    for (const rule of RULES) {
      if (!rule.from(path)) continue;
      for (const target of importsOf(file)) {
        if (rule.forbidden(target)) found.push(`${path} → ${target} (${rule.why})`);
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
});
