import request from 'supertest';
import TestAgent from 'supertest/lib/agent';
import { DataSource } from 'typeorm';
import { App, createApp, ready } from '../../src/app.factory';
import type { AppOptions } from '../../src/app.module';
import { AppConfig, loadConfig } from '../../src/config/app-config';
import { DatabaseConnection } from '../../src/database/database-connection';
import { assertContract, ContractRecorder } from './contract';
import { freePort } from './free-port';
import { TEST_DATA_DIR } from './run-process';
import { TEST_POOL_SIZE } from './service-process';
import { createTestDatabase } from './test-database';
import { TestClock } from './test-clock';

export interface TestApp {
  app: App;
  config: AppConfig;
  http: TestAgent;
  dataSource: DataSource;
  clock: TestClock;
  /** Base URL when started with `listen: true` (browser tests, webhook receivers). */
  baseUrl: string;
  /** Every answer the app sent; `close()` checks them against the served description (contract.ts). */
  contract: ContractRecorder;
  /** Closes the app, drops the database, then fails if any answer broke the OpenAPI description. */
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  /** Listen on a real port, so `BASE_URL` and the URLs built from it are reachable. */
  listen?: boolean;
  /** Modules added to the app as a deployment adds plugins. */
  plugins?: AppOptions['plugins'];
}

/** The whole application on a fresh database (see test-database.ts). */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  const port = options.listen ? await freePort() : 3000;
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: String(port),
    BASE_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: options.env?.DATA_DIR ?? TEST_DATA_DIR,
    DATABASE_POOL_SIZE: TEST_POOL_SIZE,
    ...options.env,
    DATABASE_URL: database.url,
  });
  const clock = new TestClock();
  const connection = await DatabaseConnection.open(config);
  const app = await createApp(config, connection, { clock, plugins: options.plugins });
  const contract = new ContractRecorder();
  contract.install(app.getHttpAdapter().getInstance());
  if (options.listen) await app.listen(port, '127.0.0.1');
  else await ready(app);
  // The description as a client gets it, taken before any test request is recorded.
  const docs = await app
    .getHttpAdapter()
    .getInstance()
    .inject({ method: 'GET', url: `${config.paths.base}/docs-json` });
  const description = docs.json();
  contract.exchanges.length = 0;
  return {
    app,
    config,
    clock,
    http: request(app.getHttpServer()),
    dataSource: app.get(DataSource),
    baseUrl: config.urls.base,
    contract,
    async close() {
      await app.close();
      await database.drop();
      assertContract(description, config.paths.base, contract.exchanges);
    },
  };
}
