/**
 * The operator CLI of a deployment with the example plugins, as docs/extending.md shows it: the
 * plugin test runs it as a process (`node -r ts-node/register/transpile-only …`).
 */
import 'reflect-metadata';
import { BlockedDomainsPlugin } from '../../../examples/blocked-domains/blocked-domains.plugin';
import { runCli } from '../../../src/cli/run-cli';

runCli(process.argv.slice(2), { plugins: [BlockedDomainsPlugin.register()] });
