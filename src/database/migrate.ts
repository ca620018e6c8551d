import type { DynamicModule, Type } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { schemaOf } from '../common/plugins/contributions';
import type { AppConfig } from '../config/app-config';
import { DatabaseConnection } from './database-connection';
import { dataSourceOptions } from './data-source-options';

/**
 * Applies the pending migrations of core and of `plugins` to the configured database (DATABASE_URL,
 * or the embedded one in DATA_DIR), in timestamp order; returns the names of those applied.
 * `npm run migration:run` calls it without plugins; a deployment with plugins calls it with the
 * same list as its server (docs/extending.md).
 */
export async function runMigrations(
  config: AppConfig,
  plugins: ReadonlyArray<Type | DynamicModule> = [],
): Promise<string[]> {
  const connection = await DatabaseConnection.open(config);
  const dataSource = new DataSource(dataSourceOptions(connection.url, 2, schemaOf(plugins)));
  try {
    await dataSource.initialize();
    const applied = await dataSource.runMigrations();
    return applied.map((migration) => migration.name);
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
    await connection.close();
  }
}
