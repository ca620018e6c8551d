import 'reflect-metadata';
import type { DynamicModule, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule } from '../app.module';
import { AppError, ValidationError } from '../common/errors/app-error';
import { AppConfig, loadConfig } from '../config/app-config';
import { CliCommand } from './cli-command';
import { COMMANDS } from './commands';
import { announcedEmbedded } from '../database/embedded-postgres';
import { openCliDatabase } from './database';
import { CliUsageError, parseFlags } from './flags';

const HELP = new Set(['--help', '-h', 'help']);

/** `npm run cli -- --help`: every command with its one-line summary. */
function cliHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    'Usage: npm run cli -- <command> [--flags]',
    '',
    'Operator commands on the configuration of the server (DATABASE_URL, or the embedded database in DATA_DIR).',
    'They print JSON on stdout; on failure one line on stderr and exit code 1.',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Run `npm run cli -- <command> --help` for the flags of a command.',
  ].join('\n');
}

/** `npm run cli -- <command> --help`: its usage and each flag. */
function commandHelp(command: CliCommand): string {
  const names = Object.keys(command.flags);
  const width = Math.max(0, ...names.map((n) => n.length + 2));
  return [
    `Usage: npm run cli -- ${command.usage}`,
    '',
    command.summary,
    ...(names.length ? ['', 'Flags:', ...names.map((n) => `  ${`--${n}`.padEnd(width)}  ${command.flags[n]}`)] : []),
  ].join('\n');
}

/**
 * `npm run cli -- <command> [--flags]` (README, *Operating it*): a Nest application context without HTTP
 * on the server's configuration. JSON on stdout; on failure one line on stderr and exit code 1.
 */
async function run(argv: string[], plugins: ReadonlyArray<Type | DynamicModule>): Promise<unknown> {
  const [name, ...rest] = argv;
  if (name !== undefined && HELP.has(name)) return cliHelp();
  const command = COMMANDS.find((candidate) => candidate.name === name);
  if (!command) {
    const names = COMMANDS.map((candidate) => candidate.name).join(', ');
    throw new CliUsageError(
      name
        ? `Unknown command ${name}; commands: ${names} (npm run cli -- --help)`
        : `Usage: npm run cli -- <command> [--flags]; commands: ${names} (npm run cli -- --help)`,
    );
  }
  if (rest.some((arg) => HELP.has(arg))) return commandHelp(command);
  const flags = parseFlags(rest, {
    command: command.name,
    names: Object.keys(command.flags),
    switches: command.switches,
  });
  const loaded = withServersBaseUrl(loadConfig());
  // Logs would corrupt the JSON on stdout, and webhook delivery belongs to the server.
  const config: AppConfig = {
    ...loaded,
    logLevel: 'silent',
    webhooks: { ...loaded.webhooks, runWorker: false },
    delivery: { ...loaded.delivery, fingerprint: command.adoptsDeliverySecret ? 'adopt' : 'check' },
  };
  const connection = await openCliDatabase(config);
  let app;
  try {
    app = await NestFactory.createApplicationContext(AppModule.forRoot(config, connection, { plugins: [...plugins] }), {
      logger: false,
      abortOnError: false,
    });
  } catch (error) {
    await connection.close();
    throw error;
  }
  try {
    return await command.run(app, flags);
  } finally {
    await app.close();
  }
}

/**
 * On the embedded database of a running server, told neither `BASE_URL` nor `PORT`, the CLI takes
 * the base URL that server announced: the links and commands it prints (seed:demo's) then lead to
 * it, on whatever port it was started.
 */
function withServersBaseUrl(config: AppConfig): AppConfig {
  if (config.database.url || process.env.BASE_URL || process.env.PORT) return config;
  const announced = announcedEmbedded(config.dataDir)?.baseUrl;
  return announced && announced !== config.urls.base ? loadConfig({ ...process.env, BASE_URL: announced }) : config;
}

function oneLine(error: unknown): string {
  if (error instanceof ValidationError) {
    const details = Object.entries(error.errors).map(([field, messages]) => `${field}: ${messages.join(' ')}`);
    return `${error.message} ${details.join('; ')}`;
  }
  const message = error instanceof AppError || error instanceof Error ? error.message : String(error);
  return message.replace(/\s*\n\s*/g, ' ');
}

function exit(code: number, stream: NodeJS.WriteStream, text: string): void {
  // Exit once the line is flushed: open pools or sockets must not keep the process alive.
  stream.write(`${text}\n`, () => process.exit(code));
}

/**
 * Runs one CLI command, prints its answer and exits. `plugins`: those of the deployment, so the
 * commands see their tables (their migrations run with core's when the database is behind) and
 * scopes; `src/cli/main.ts` runs it with none (docs/extending.md).
 */
export function runCli(argv: string[], options: { plugins?: ReadonlyArray<Type | DynamicModule> } = {}): void {
  run(argv, options.plugins ?? []).then(
    // A command that returns text (help, the seed:demo guide) prints it as is.
    (result) => exit(0, process.stdout, typeof result === 'string' ? result : JSON.stringify(result)),
    (error: unknown) => exit(1, process.stderr, `Error: ${oneLine(error)}`),
  );
}
