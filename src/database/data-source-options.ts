import { join } from 'node:path';
import { DataSourceOptions } from 'typeorm';
import { NO_PLUGIN_SCHEMA, PluginSchema } from '../common/plugins/contributions';
import { SnakeNamingStrategy } from './snake-naming.strategy';
import { poolTypes } from './timestamps';

const root = join(__dirname, '..', '..');

/**
 * Core's entities and migrations are found by file name, so the CLI and the app see the same
 * schema; a plugin's are its classes (`definePlugin({ entities, migrations })`), added here.
 */
export const ENTITY_GLOBS = [join(root, 'src', '**', '*.entity.{ts,js}')];
export const MIGRATION_GLOBS = [join(root, 'migrations', '*.{ts,js}')];

export function dataSourceOptions(
  url: string,
  poolSize: number,
  plugins: PluginSchema = NO_PLUGIN_SCHEMA,
): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: [...ENTITY_GLOBS, ...plugins.entities],
    // TypeORM runs them all in the order of their timestamps, core's and the plugins' interleaved.
    migrations: [...MIGRATION_GLOBS, ...plugins.migrations],
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    namingStrategy: new SnakeNamingStrategy(),
    synchronize: false,
    // `pipeline`: statements made together on one connection (a transaction's, whose in-transaction
    // handlers run at once: common/events) are sent without waiting for each other's answers and
    // answered in order (pg's documented pipelining), where pg would otherwise queue them with a
    // deprecation warning, and pg 9 refuse them.
    extra: { max: poolSize, types: poolTypes, pipeline: true },
  };
}
