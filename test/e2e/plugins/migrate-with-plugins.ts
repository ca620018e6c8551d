/**
 * The migration runner of a deployment with the example plugin, as docs/extending.md shows it: the
 * plugin test runs it as a process on an embedded PGlite database (PGlite does not load under Jest).
 */
import 'reflect-metadata';
import { BlockedDomainsPlugin } from '../../../examples/blocked-domains/blocked-domains.plugin';
import { loadConfig } from '../../../src/config/app-config';
import { runMigrations } from '../../../src/plugins';

runMigrations(loadConfig(), [BlockedDomainsPlugin.register()]).then(
  (applied) => process.stdout.write(`${JSON.stringify(applied)}\n`),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
