import cluster from 'node:cluster';
import { runPrimary } from './cluster';
import { loadConfigOrExit } from './config/app-config';

/**
 * `node dist/src/main.js`. With WEB_CONCURRENCY > 1 this process becomes the cluster primary and
 * each worker it forks runs this file again and serves. The application is required only on the
 * serving side, so the primary stays a small process.
 */
const config = loadConfigOrExit();

if (cluster.isPrimary && config.webConcurrency > 1) {
  runPrimary(config);
} else {
  import('./server')
    .then(({ serve }) => serve(config))
    .catch((error: unknown) => {
      process.stderr.write(`Start-up failed: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    });
}
