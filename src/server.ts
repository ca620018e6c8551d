import 'reflect-metadata';
import { PaymentGatewayRegistry } from './modules/billing';
import cluster from 'node:cluster';
import { resolve } from 'node:path';
import { createApp } from './app.factory';
import { AppConfig } from './config/app-config';
import { DatabaseConnection } from './database/database-connection';
import { createLogger, prettyLogs } from './logging';

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
  // In a cluster the first worker speaks for all of them.
  if (cluster.isPrimary || cluster.worker?.id === 1) announce(config, enabledGateways(app.get(PaymentGatewayRegistry)));
}

/** The payment gateways registered at start-up, with the methods each serves. */
export function enabledGateways(registry: PaymentGatewayRegistry): string[] {
  return registry.all().map((gateway) => `${gateway.provider} (${gateway.methods.join(', ')})`);
}

/** The database in use, without credentials: the embedded files, or DATABASE_URL's host and database. */
export function describeDatabase(config: AppConfig): string {
  if (!config.database.url) return `embedded PostgreSQL in ${resolve(config.dataDir, 'pg')}`;
  try {
    const url = new URL(config.database.url);
    return `PostgreSQL ${url.host}${url.pathname}`;
  } catch {
    return 'PostgreSQL (DATABASE_URL)';
  }
}

export interface StartupSummary {
  api: string;
  docs: string;
  dashboard: string;
  checkout: string;
  database: string;
  gateways: string[];
}

export function startupSummary(config: AppConfig, gateways: string[] = []): StartupSummary {
  return {
    api: `${config.urls.base}/v1`,
    docs: `${config.urls.base}/docs`,
    dashboard: `${config.urls.web}/`,
    checkout: `${config.urls.pay}/token/<pay_token>`,
    database: describeDatabase(config),
    gateways,
  };
}

/** The block a person starting the service reads: where everything is, what it runs on. */
export function startupBlock(summary: StartupSummary): string {
  const rows: Array<[string, string]> = [
    ['API', summary.api],
    ['Swagger UI', summary.docs],
    ['Dashboard', summary.dashboard],
    ['Checkout', summary.checkout],
    ['Database', summary.database],
    ['Payments', summary.gateways.join(', ') || 'none'],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  return ['Commerce API is ready', ...rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`)].join('\n');
}

function announce(config: AppConfig, gateways: string[]): void {
  const logger = createLogger(config);
  const summary = startupSummary(config, gateways);
  // A terminal gets the block; a log collector gets one line with the same facts as fields.
  if (prettyLogs(config)) logger.info({ startup: summary }, `${startupBlock(summary)}\n`);
  else logger.info({ startup: summary }, 'Commerce API is ready');
}
