import cluster from 'node:cluster';
import { runPrimary } from './cluster';
import { loadConfigOrExit } from './config/app-config';
import { primaryConfig } from './config/primary-config';

/**
 * `node dist/src/main.js`. With WEB_CONCURRENCY > 1 this process becomes the cluster primary and
 * each worker it forks runs this file again and serves. Only the serving side loads the
 * application (and zod for the configuration), so the primary stays a small process.
 */
const primary = cluster.isPrimary ? primaryConfig() : undefined;

if (primary) {
  runPrimary(primary);
} else {
  const config = loadConfigOrExit();
  import('./server')
    .then(({ serve }) => serve(config))
    .catch((error: unknown) => {
      process.stderr.write(`Start-up failed: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    });
}
