import cluster from 'node:cluster';
import { runPrimary } from './cluster';
import { primaryConfig } from './config/primary-config';

/**
 * `node dist/src/main.js`. With WEB_CONCURRENCY > 1 this process becomes the cluster primary and
 * each worker it forks runs this file again and serves. Only the serving side requires the
 * configuration schema (zod) and the application, so the primary stays a small process.
 */
const primary = cluster.isPrimary ? primaryConfig() : undefined;

if (primary) {
  runPrimary(primary);
} else {
  import('./config/app-config')
    .then(async ({ loadConfigOrExit }) => {
      const config = loadConfigOrExit();
      const { serve } = await import('./server');
      await serve(config);
    })
    .catch((error: unknown) => {
      process.stderr.write(`Start-up failed: ${error instanceof Error ? error.message : String(error)}\n`);
      if ((error as NodeJS.ErrnoException)?.code === 'EADDRINUSE')
        process.stderr.write(
          'Another process listens on that port: stop it, or start this one on another with PORT=<port> ' +
            '(and give the CLI and seed:demo the same PORT, so the links they print lead here).\n',
        );
      process.exit(1);
    });
}
