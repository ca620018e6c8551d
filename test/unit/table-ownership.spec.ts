import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/*
 * A module's SQL names only its own tables (CONTRIBUTING.md, Layout): another module's rows are
 * read through that module's services and read ports. A table belongs to the module whose entity
 * maps it (`@Entity('name')` under src/modules/<module>/). Each module's source is scanned, without
 * its comments, for SQL that names a table (`FROM`, `JOIN`, `UPDATE`, `INTO`) and for TypeORM
 * access by another module's entity class (a repository, a query builder, an EntityManager call,
 * the hand-written SQL's `EntityColumns`).
 *
 * KNOWN lists the module → table pairs that still do so; this test fails on any other pair. A pair
 * fixed in the code leaves the list as well (the last test says which are stale).
 */
const root = resolve(__dirname, '../..');
const modulesDir = join(root, 'src/modules');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

const moduleOf = (path: string): string => relative(modulesDir, path).split('/')[0];
const withoutComments = (text: string): string => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

/** Table → owning module, and entity class → its table, from the modules' entities. */
function ownership(): { owner: Map<string, string>; tableOf: Map<string, string> } {
  const owner = new Map<string, string>();
  const tableOf = new Map<string, string>();
  for (const file of files(modulesDir)) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/@Entity\('([a-z_]+)'\)[\s\S]*?export class (\w+)/g)) {
      owner.set(m[1], moduleOf(file));
      tableOf.set(m[2], m[1]);
    }
  }
  return { owner, tableOf };
}

const ENTITY_ACCESS =
  /(?:EntityColumns\(\s*[\w.]+\s*,\s*|Repository<|InjectRepository\(|createQueryBuilder\(|getRepository\(|\.(?:find|findBy|findOne|findOneBy|findAndCount|count|countBy|exists|existsBy|update|delete|insert|save|increment|decrement|upsert|create|sum)\()\s*(\w+)\b/g;
const SQL_TABLE = /\b(?:FROM|JOIN|UPDATE|INTO)\s+"?([a-z_]+)"?/g;

/** `module → table (file)` for every place a module's code names a table another module owns. */
function scan(module: string, file: string, text: string, own = ownership()): string[] {
  const found = new Set<string>();
  const code = withoutComments(text);
  const report = (table: string | undefined) => {
    const owner = table && own.owner.get(table);
    if (owner && owner !== module) found.add(`${module} → ${table} (${relative(root, file)})`);
  };
  for (const m of code.matchAll(SQL_TABLE)) report(m[1]);
  for (const m of code.matchAll(ENTITY_ACCESS)) report(own.tableOf.get(m[1]));
  for (const m of code.matchAll(/forFeature\(\[([^\]]*)\]/g))
    for (const name of m[1].split(',').map((s) => s.trim())) report(own.tableOf.get(name));
  return [...found];
}

/** Every finding, with its file. */
function violations(): string[] {
  const own = ownership();
  return files(modulesDir)
    .filter((file) => !file.endsWith('/index.ts'))
    .flatMap((file) => scan(moduleOf(file), file, readFileSync(file, 'utf8'), own))
    .sort();
}

/** `module → table`, without the file. */
const pairOf = (finding: string): string => finding.replace(/ \(.*\)$/, '');

/**
 * What still names another module's tables: none. A pair that must stay for a while (while it is
 * moved behind the owning module's services and read ports) is listed here with why.
 */
const KNOWN: string[] = [];

describe('table ownership', () => {
  it('derives the owner of every table from the entities', () => {
    const { owner, tableOf } = ownership();
    expect(owner.get('orders')).toBe('billing');
    expect(owner.get('products')).toBe('catalog');
    expect(owner.get('discounts')).toBe('discounts');
    expect(tableOf.get('Product')).toBe('products');
  });

  it('sees a table named by SQL or reached through an entity of another module', () => {
    const file = join(modulesDir, 'billing/x.ts');
    expect(scan('billing', file, 'q(`SELECT p.id FROM products p JOIN orders o ON o.product_id = p.id`)')).toEqual([
      'billing → products (src/modules/billing/x.ts)',
    ]);
    expect(scan('webhooks', file, '@InjectRepository(Product) private readonly products: Repository<Product>')).toEqual(
      ['webhooks → products (src/modules/billing/x.ts)'],
    );
    expect(scan('billing', file, 'new EntityColumns(dataSource, Discount)')).toEqual([
      'billing → discounts (src/modules/billing/x.ts)',
    ]);
    // Its own tables, and prose in comments, are not a finding.
    expect(scan('billing', file, '// reads FROM products\nq(`SELECT 1 FROM orders o`)')).toEqual([]);
  });

  it('finds no SQL naming another module’s table beyond the known list', () => {
    expect(violations().filter((v) => !KNOWN.includes(pairOf(v)))).toEqual([]);
  });

  it('keeps the known list current (an entry fixed in the code leaves the list)', () => {
    const now = violations().map(pairOf);
    expect(KNOWN.filter((pair) => !now.includes(pair))).toEqual([]);
  });
});
