import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import * as ts from 'typescript';

/*
 * Hand-written SQL has one place (CONTRIBUTING.md, Conventions): a `PreparedStatement` that its
 * repository builds once, in its constructor, and runs with `rows` or `arrays`. So every such
 * statement exists once the app has started, and test/e2e/foundation/hot-sql.e2e-spec.ts keeps all
 * of them in test/sql-snapshots/hand-written.sql, not only those a test happens to run.
 *
 * This test parses src/ and fails on a `.query(` call (TypeORM's `DataSource`, `EntityManager` or
 * `QueryRunner`, or pg's) outside ALLOWED, and on a `PreparedStatement` built anywhere but in a
 * constructor or a field's initializer (`EntityColumns`, in database/entity-sql.ts, generates
 * its own, one per column set, on first use).
 */
const root = resolve(__dirname, '../..');
const srcDir = join(root, 'src');

/** Where `.query(` calls stay (a file, or a folder ending in `/`), and why. */
const ALLOWED: Record<string, string> = {
  'src/database/prepared-statements.ts':
    'PreparedStatement itself (a transaction’s query runner, the pool), and `SELECT version()` that decides whether it names its statements, before any is built',
  'src/common/jobs/':
    'the job queue’s plumbing: pg-boss’s own SQL (on the pool, or on the transaction of a job sent with one), `pg_notify` and `LISTEN`',
  'src/modules/webhooks/delivery/worker-lease.ts':
    'the webhook worker’s lease: a session advisory lock held on a connection of its own, outside the pool',
  'src/modules/test-mode/test-data.repository.ts':
    'the reset of a test store: tables found in the schema’s catalog at run time, each emptied by a DELETE naming it',
  'src/modules/health/health.controller.ts':
    'the health check’s `SELECT 1` through TypeORM: whether the database answers, not data',
};

const allowedBy = (finding: string): string | undefined => {
  const file = finding.replace(/:\d+$/, '');
  return Object.keys(ALLOWED).find((path) => (path.endsWith('/') ? file.startsWith(path) : file === path));
};

/** The file that generates statements per column set on first use. */
const GENERATOR = 'src/database/entity-sql.ts';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

interface Findings {
  /** `file:line` of every `.query(` call. */
  queries: string[];
  /** `file:line` of every `new PreparedStatement(` outside a constructor or field initializer. */
  builtLate: string[];
}

function scan(file: string, text: string): Findings {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const at = (node: ts.Node) => `${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
  const found: Findings = { queries: [], builtLate: [] };
  const inConstructorOrField = (node: ts.Node): boolean => {
    for (let n: ts.Node | undefined = node.parent; n; n = n.parent) {
      if (ts.isConstructorDeclaration(n)) return true;
      if (ts.isPropertyDeclaration(n)) return n.initializer !== undefined && isWithin(node, n.initializer);
      if (ts.isClassLike(n) || ts.isSourceFile(n)) return false;
    }
    return false;
  };
  const visit = (node: ts.Node) => {
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.name.text === 'query'
    )
      found.queries.push(at(node));
    if (
      ts.isNewExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'PreparedStatement' &&
      !inConstructorOrField(node)
    )
      found.builtLate.push(at(node));
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function isWithin(node: ts.Node, outer: ts.Node): boolean {
  return node.getStart() >= outer.getStart() && node.getEnd() <= outer.getEnd();
}

function scanSrc(): Findings {
  const all: Findings = { queries: [], builtLate: [] };
  for (const path of files(srcDir)) {
    const file = relative(root, path);
    const found = scan(file, readFileSync(path, 'utf8'));
    all.queries.push(...found.queries);
    if (file !== GENERATOR) all.builtLate.push(...found.builtLate);
  }
  return all;
}

describe('hand-written SQL', () => {
  it('sees `.query(` calls and statements built outside a constructor', () => {
    const found = scan(
      'src/x.ts',
      `class A {
         private readonly a = new PreparedStatement(ds, 'SELECT 1');
         private readonly b: PreparedStatement;
         constructor(ds: DataSource) {
           const variant = (w: string) => new PreparedStatement(ds, 'SELECT 2 WHERE ' + w);
           this.b = variant('true');
         }
         async m(manager: EntityManager) {
           await manager.query('SELECT 3');
           await this.dataSource
             .query('SELECT 4');
           return new PreparedStatement(this.ds, 'SELECT 5').rows([]);
         }
       }
       // manager.query('a comment is not a call')
       const late = () => new PreparedStatement(ds, 'SELECT 6');`,
    );
    expect(found).toEqual({ queries: ['src/x.ts:9', 'src/x.ts:10'], builtLate: ['src/x.ts:12', 'src/x.ts:16'] });
  });

  it('runs no `.query(` in src/ outside the allowed files', () => {
    const { queries } = scanSrc();
    expect(queries.filter((q) => !allowedBy(q))).toEqual([]);
  });

  it('keeps the allowed list current (a path without a call any more leaves it)', () => {
    const used = new Set(scanSrc().queries.map(allowedBy));
    expect(Object.keys(ALLOWED).filter((path) => !used.has(path))).toEqual([]);
  });

  it('builds every hand-written statement in a constructor or a field initializer', () => {
    expect(scanSrc().builtLate).toEqual([]);
  });
});
