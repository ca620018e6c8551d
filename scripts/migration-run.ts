/** `npm run migration:run`: applies pending migrations to the configured database. */
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfig } from '../src/config/app-config';
import { DatabaseConnection } from '../src/database/database-connection';
import { dataSourceOptions } from '../src/database/data-source-options';

async function main(): Promise<void> {
  const connection = await DatabaseConnection.open(loadConfig());
  const dataSource = new DataSource(dataSourceOptions(connection.url, 2));
  try {
    await dataSource.initialize();
    const applied = await dataSource.runMigrations();
    process.stdout.write(`${applied.length} migration(s) applied.\n`);
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
    await connection.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
