import 'reflect-metadata';
import { createApp } from './app.factory';
import { AppConfig } from './config/app-config';
import { DatabaseConnection } from './database/database-connection';

/**
 * Serves the HTTP surfaces in this process: the single process of the default, or one cluster
 * worker (cluster.ts), which shares the port through node:cluster. Nest's shutdown hooks close the
 * HTTP server first (in-flight requests finish), then the pool, then the embedded database.
 */
export async function serve(config: AppConfig): Promise<void> {
  const connection = await DatabaseConnection.open(config);
  const app = await createApp(config, connection);
  // Every interface, as Express did (Fastify's default is localhost only).
  await app.listen(config.port, '0.0.0.0');
}
