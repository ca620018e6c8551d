import { AppConfig } from '../config/app-config';
import { DatabaseConnection } from '../database/database-connection';
import { announcedEmbeddedUrl } from '../database/embedded-postgres';

/**
 * The database the CLI works on (decisions §2.2): the configured one, the embedded database of a
 * running server (through its socket), or, when no server runs, the embedded database itself.
 */
export async function openCliDatabase(config: AppConfig): Promise<DatabaseConnection> {
  if (config.database.url) return DatabaseConnection.open(config);
  const url = announcedEmbeddedUrl(config.dataDir);
  if (url) return new DatabaseConnection(url, 2);
  return DatabaseConnection.open({ ...config, database: { ...config.database, poolSize: 2 } });
}
