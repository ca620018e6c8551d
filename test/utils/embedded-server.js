// Runs an in-memory embedded PostgreSQL in its own process and prints its URL on stdout.
// PGlite loads its WebAssembly through dynamic import(), which Jest's module sandbox does not
// allow, so test files start it here instead of in-process.
require('ts-node').register({ transpileOnly: true, compilerOptions: { module: 'commonjs' } });
const { startEmbeddedPostgres } = require('../../src/database/embedded-postgres');

startEmbeddedPostgres().then(
  (db) => {
    process.stdout.write(`${db.url}\n`);
    const stop = () => db.stop().finally(() => process.exit(0));
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
    process.on('disconnect', stop);
  },
  (error) => {
    process.stderr.write(`${error.stack || error}\n`);
    process.exit(1);
  },
);
