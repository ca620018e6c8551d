import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';

/**
 * The few settings a cluster primary needs, read without zod: zod and the schema of app-config.ts
 * would be a fifth of the primary's memory, which counts once more beside every worker. Nothing is
 * validated here: each worker validates the whole configuration at start, and a bad value stops
 * the first worker with the usual one line, and the primary with it (cluster.ts). Whatever does not
 * plainly ask for a cluster answers `undefined`, so that main.ts takes the single-process way,
 * whose loadConfigOrExit() reports a bad WEB_CONCURRENCY.
 */
export interface PrimaryConfig {
  workers: number;
  logLevel: string;
  /**
   * Settings each worker must share with the others (cluster.ts): the per-boot random secrets are
   * drawn here once when unset, so a session cookie or a sandbox callback signed by one worker is
   * accepted by any other.
   */
  sharedEnv: { SESSION_SECRET: string; PAYMENT_SANDBOX_SECRET: string };
}

export const WEB_CONCURRENCY_FORMAT = /^(auto|[1-9]\d*)$/;

/** `auto` is one worker per core this process may use. */
export function webConcurrencyOf(value: string): number {
  return value === 'auto' ? availableParallelism() : Number(value);
}

export function defaultLogLevel(nodeEnv: string | undefined): string {
  return nodeEnv === 'test' ? 'silent' : 'info';
}

/** Empty strings count as unset, so `FOO= npm start` behaves like no FOO at all. */
export function envValue(source: Record<string, string | undefined>, name: string): string | undefined {
  const value = source[name];
  return value === undefined || value === '' ? undefined : value;
}

export function primaryConfig(source: Record<string, string | undefined> = process.env): PrimaryConfig | undefined {
  const concurrency = envValue(source, 'WEB_CONCURRENCY');
  if (!concurrency || !WEB_CONCURRENCY_FORMAT.test(concurrency) || !envValue(source, 'DATABASE_URL')) return undefined;
  const workers = webConcurrencyOf(concurrency);
  if (workers < 2) return undefined;
  return {
    workers,
    logLevel: envValue(source, 'LOG_LEVEL') ?? defaultLogLevel(envValue(source, 'NODE_ENV')),
    sharedEnv: {
      SESSION_SECRET: envValue(source, 'SESSION_SECRET') ?? randomBytes(32).toString('hex'),
      PAYMENT_SANDBOX_SECRET: envValue(source, 'PAYMENT_SANDBOX_SECRET') ?? randomBytes(32).toString('hex'),
    },
  };
}
