/**
 * `npm run migration:generate -- <Name>`: diffs the entities against a scratch database that has
 * every committed migration applied, and writes the difference as a new migration in migrations/.
 * Uses a throwaway embedded database, so it never touches real data.
 *
 * `npm run migration:generate -- <Name> --plugin <folder>`: the same for a plugin's tables. The
 * plugin's entities are the `*.entity.ts` files under its folder, its migrations those of
 * `<folder>/migrations/`, where the new one is written (list it in `definePlugin({ migrations })`).
 */
import 'reflect-metadata';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DataSource, DataSourceOptions } from 'typeorm';
import { dataSourceOptions } from '../src/database/data-source-options';
import { startEmbeddedPostgres } from '../src/database/embedded-postgres';

async function main(): Promise<void> {
  const [name, flag, folder, ...rest] = process.argv.slice(2);
  if (
    !name ||
    !/^[A-Za-z][A-Za-z0-9]*$/.test(name) ||
    (flag !== undefined && (flag !== '--plugin' || !folder)) ||
    rest.length
  ) {
    process.stderr.write('usage: npm run migration:generate -- <PascalCaseName> [--plugin <folder>]\n');
    process.exit(1);
  }
  const pluginDir = folder ? resolve(folder) : undefined;
  const outDir = pluginDir ? join(pluginDir, 'migrations') : join(__dirname, '..', 'migrations');
  const embedded = await startEmbeddedPostgres();
  const base = dataSourceOptions(embedded.url, 2);
  const dataSource = new DataSource(
    pluginDir
      ? ({
          ...base,
          entities: [...(base.entities as string[]), join(pluginDir, '**', '*.entity.{ts,js}')],
          migrations: [...(base.migrations as string[]), join(outDir, '*.{ts,js}')],
        } as DataSourceOptions)
      : base,
  );
  try {
    await dataSource.initialize();
    await dataSource.runMigrations();
    const sql = await dataSource.driver.createSchemaBuilder().log();
    if (!sql.upQueries.length) {
      process.stdout.write('No changes in the entities: nothing to generate.\n');
      return;
    }
    const timestamp = Date.now();
    const quote = (q: string) => '`' + q.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${') + '`';
    const up = sql.upQueries.map((q) => `    await queryRunner.query(${quote(q.query)});`).join('\n');
    const down = sql.downQueries
      .reverse()
      .map((q) => `    await queryRunner.query(${quote(q.query)});`)
      .join('\n');
    const className = `${name}${timestamp}`;
    mkdirSync(outDir, { recursive: true });
    const file = join(outDir, `${timestamp}-${name}.ts`);
    writeFileSync(
      file,
      `import { MigrationInterface, QueryRunner } from 'typeorm';

export class ${className} implements MigrationInterface {
  name = '${className}';

  public async up(queryRunner: QueryRunner): Promise<void> {
${up}
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
${down}
  }
}
`,
    );
    process.stdout.write(`Wrote ${file}\n`);
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
    await embedded.stop();
  }
}

void main();
