import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { AppConfig } from '../config/app-config';
import { DatabaseConnection } from '../database/database-connection';
import { announcedEmbeddedUrl } from '../database/embedded-postgres';
import { CliUsageError } from './flags';

/**
 * The database the CLI works on (README, *Operating it*): the configured one, the embedded database of a
 * running server (through its socket), or, when no server runs, the embedded database itself.
 *
 * That last case refuses when a server answers at BASE_URL all the same: it runs on another
 * DATA_DIR (or on DATABASE_URL), so what the command wrote would land in a database that server
 * never reads, and the key seed:demo prints would be refused by it.
 */
export async function openCliDatabase(config: AppConfig): Promise<DatabaseConnection> {
  if (config.database.url) return DatabaseConnection.open(config);
  const url = announcedEmbeddedUrl(config.dataDir);
  if (url) return new DatabaseConnection(url, 2);
  if (await serverAnswers(config.urls.base)) {
    throw new CliUsageError(
      `The server at ${config.urls.base} does not run on DATA_DIR=${config.dataDir} (no pg.server.json there): ` +
        `run this command with that server's DATA_DIR (or DATABASE_URL), or stop the server first.`,
    );
  }
  if (!existsSync(join(config.dataDir, 'pg')))
    // Said plainly before it happens: a second terminal without the server's settings would
    // otherwise fill a database no server reads (README, Quick start).
    process.stderr.write(
      `Note: creating a new embedded database in DATA_DIR=${config.dataDir}; no running server uses it. ` +
        `To work on a running server's database, run this command with that server's DATA_DIR and PORT (or BASE_URL), or its DATABASE_URL.\n`,
    );
  return DatabaseConnection.open({ ...config, database: { ...config.database, poolSize: 2 } });
}

async function serverAnswers(baseUrl: string): Promise<boolean> {
  try {
    const res = await fetch(`${baseUrl}/v1/health`, { signal: AbortSignal.timeout(1500) });
    await res.body?.cancel();
    return res.status === 200 || res.status === 503;
  } catch {
    return false;
  }
}
