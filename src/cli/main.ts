import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppModule } from '../app.module';
import { AppError, ValidationError } from '../common/errors/app-error';
import { AppConfig, loadConfig } from '../config/app-config';
import { COMMANDS } from './commands';
import { openCliDatabase } from './database';
import { CliUsageError, parseFlags } from './flags';

/**
 * `npm run cli -- <command> [--flags]` (decisions §2.2): a Nest application context without HTTP
 * on the server's configuration. JSON on stdout; on failure one line on stderr and exit code 1.
 */
async function run(argv: string[]): Promise<unknown> {
  const [name, ...rest] = argv;
  const command = COMMANDS.find((candidate) => candidate.name === name);
  if (!command) {
    const usage = COMMANDS.map((candidate) => candidate.usage).join(' | ');
    throw new CliUsageError(name ? `Unknown command ${name}; commands: ${usage}` : `Usage: npm run cli -- <command>; commands: ${usage}`);
  }
  const flags = parseFlags(rest);
  const loaded = loadConfig();
  // Logs would corrupt the JSON on stdout, and webhook delivery belongs to the server.
  const config: AppConfig = { ...loaded, logLevel: 'silent', webhooks: { ...loaded.webhooks, runWorker: false } };
  const connection = await openCliDatabase(config);
  let app;
  try {
    app = await NestFactory.createApplicationContext(AppModule.forRoot(config, connection), { logger: false, abortOnError: false });
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

run(process.argv.slice(2)).then(
  (result) => exit(0, process.stdout, JSON.stringify(result)),
  (error: unknown) => exit(1, process.stderr, `Error: ${oneLine(error)}`),
);
