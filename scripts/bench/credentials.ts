/**
 * Creates the benchmark seller, store and an all-scope API key through the application's own
 * services (the same code the dashboard and `seller:create` / `api-key:create` use), then prints
 * `{seller_id, store_id, token}` as JSON. Run as a child process by run.ts after the service has
 * migrated the database.
 */
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { createApp } from '../../src/app.factory';
import { loadConfig } from '../../src/config/app-config';
import { DatabaseConnection } from '../../src/database/database-connection';
import { ApiKeysService } from '../../src/modules/identity/api-keys/api-keys.service';
import { SellersService } from '../../src/modules/identity/sellers/sellers.service';
import { ALL_SCOPES } from '../../src/modules/identity/scopes';

async function main(): Promise<void> {
  const config = loadConfig({ ...process.env, WEBHOOK_WORKER: 'false', LOG_LEVEL: 'silent' });
  const connection = await DatabaseConnection.open(config);
  const app = await createApp(config, connection);
  await app.init();
  try {
    const suffix = randomBytes(3).toString('hex');
    const { seller, store } = await app.get(SellersService).register({
      name: 'Bench Seller',
      email: `bench-${suffix}@bench.example`,
      password: randomBytes(12).toString('hex'),
      storeName: 'Bench Store',
      brand: 'Bench Store',
      currency: 'MZN',
    });
    const { token } = await app
      .get(ApiKeysService)
      .create({ storeId: store.id, sellerId: seller.id, name: 'bench', scopes: [...ALL_SCOPES] });
    process.stdout.write(`${JSON.stringify({ seller_id: seller.id, store_id: store.id, token })}\n`);
  } finally {
    await app.close();
    await connection.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
