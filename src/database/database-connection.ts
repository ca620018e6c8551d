import { AppConfig } from '../config/app-config';
import { EmbeddedPostgres, startEmbeddedPostgres } from './embedded-postgres';

/**
 * Resolves the PostgreSQL URL the process uses: `DATABASE_URL`, or an embedded PGlite under
 * `$DATA_DIR/pg` started here and stopped on shutdown.
 */
export class DatabaseConnection {
  private embedded?: EmbeddedPostgres;

  constructor(
    readonly url: string,
    readonly poolSize: number,
    embedded?: EmbeddedPostgres,
  ) {
    this.embedded = embedded;
  }

  static async open(config: AppConfig): Promise<DatabaseConnection> {
    if (config.database.url) return new DatabaseConnection(config.database.url, config.database.poolSize);
    const embedded = await startEmbeddedPostgres(config.dataDir, config.urls.base);
    // PGlite runs one query at a time; a small pool avoids queueing work in idle connections.
    return new DatabaseConnection(embedded.url, Math.min(config.database.poolSize, 8), embedded);
  }

  async close(): Promise<void> {
    await this.embedded?.stop();
    this.embedded = undefined;
  }
}
