import { existsSync, readFileSync } from 'node:fs';
import { AppConfig } from '../config/app-config';
import { DatabaseConnection } from '../database/database-connection';
import { embeddedLockFile } from '../database/embedded-postgres';

/**
 * The database the CLI works on (decisions §2.2). PGlite is single-process: opening `$DATA_DIR/pg`
 * beside a running server would corrupt it, so when a live server announces its embedded database
 * in `pg.server.json` the CLI connects through that server's socket instead.
 */
export async function openCliDatabase(config: AppConfig): Promise<DatabaseConnection> {
  if (config.database.url) return DatabaseConnection.open(config);
  const lock = embeddedLockFile(config.dataDir);
  if (existsSync(lock)) {
    let announced: { pid?: unknown; url?: unknown };
    try {
      announced = JSON.parse(readFileSync(lock, 'utf8')) as { pid?: unknown; url?: unknown };
    } catch {
      throw new Error(`Cannot read ${lock}; if no server is running, delete it and retry`);
    }
    if (typeof announced.pid === 'number' && typeof announced.url === 'string' && isAlive(announced.pid)) {
      return new DatabaseConnection(announced.url, 2);
    }
    // A lock left by a server that died: nobody holds the data directory, so we may open it.
  }
  return DatabaseConnection.open({ ...config, database: { ...config.database, poolSize: 2 } });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
