/** `npm run migration:run`: applies core's pending migrations to the configured database. */
import 'reflect-metadata';
import { loadConfig } from '../src/config/app-config';
import { runMigrations } from '../src/database/migrate';

async function main(): Promise<void> {
  const applied = await runMigrations(loadConfig());
  process.stdout.write(`${applied.length} migration(s) applied.\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
