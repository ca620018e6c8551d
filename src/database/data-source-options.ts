import { join } from 'node:path';
import { DataSourceOptions } from 'typeorm';
import { SnakeNamingStrategy } from './snake-naming.strategy';
import { poolTypes } from './timestamps';

const root = join(__dirname, '..', '..');

/** Entities and migrations are found by file name, so the CLI and the app see the same schema. */
export const ENTITY_GLOBS = [join(root, 'src', '**', '*.entity.{ts,js}')];
export const MIGRATION_GLOBS = [join(root, 'migrations', '*.{ts,js}')];

export function dataSourceOptions(url: string, poolSize: number): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: ENTITY_GLOBS,
    migrations: MIGRATION_GLOBS,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    namingStrategy: new SnakeNamingStrategy(),
    synchronize: false,
    extra: { max: poolSize, types: poolTypes },
  };
}
