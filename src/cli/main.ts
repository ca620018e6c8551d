import { runCli } from './run-cli';

/** `npm run cli -- <command> [--flags]`: the operator commands, on core without plugins. */
runCli(process.argv.slice(2));
