/**
 * `npm run migration:generate -- <Name>`: diffs the entities against a scratch database that has
 * every committed migration applied, and writes the difference as a new migration in migrations/.
 * Uses a throwaway embedded database, so it never touches real data.
 */
import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../src/database/data-source-options';
import { startEmbeddedPostgres } from '../src/database/embedded-postgres';

async function main(): Promise<void> {
  const name = process.argv[2];
  if (!name || !/^[A-Za-z][A-Za-z0-9]*$/.test(name)) {
    process.stderr.write('usage: npm run migration:generate -- <PascalCaseName>\n');
    process.exit(1);
  }
  const embedded = await startEmbeddedPostgres();
  const dataSource = new DataSource(dataSourceOptions(embedded.url, 2));
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
    const file = join(__dirname, '..', 'migrations', `${timestamp}-${name}.ts`);
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
