import { join } from 'node:path';
import { z } from 'zod';
import { boolean, ConfigError, httpUrl } from './env-formats';
import { defaultLogLevel, envValue, WEB_CONCURRENCY_FORMAT, webConcurrencyOf } from './primary-config';
import {
  PAYMENT_PROVIDER_ENV,
  paymentsConfig,
  PaymentsConfig,
  S3_ENV,
  storageConfig,
  StorageConfig,
} from './provider-config';

/**
 * With primary-config.ts (the cluster primary's few settings), the only place that reads
 * `process.env` (README, *Configuration*). Everything else receives a typed, validated {@link AppConfig}; a
 * bad value stops start-up with one line naming the variable. The settings of the providers (payment
 * gateways, S3) are read in provider-config.ts.
 */

const env = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  BASE_URL: httpUrl.optional(),
  WEB_URL: httpUrl.optional(),
  PAY_URL: httpUrl.optional(),
  CDN_URL: httpUrl.optional(),
  DATABASE_URL: z
    .string()
    .refine((value) => /^postgres(ql)?:\/\//.test(value), 'must be a postgres:// URL')
    .optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(500).optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  ...PAYMENT_PROVIDER_ENV,
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  LOG_FORMAT: z.enum(['auto', 'json']).default('auto'),
  MAX_FILE_MB: z.coerce.number().positive().max(10240).default(100),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  REDIS_URL: z
    .string()
    .refine((value) => /^rediss?:\/\//.test(value), 'must be a redis:// URL')
    .optional(),
  WEBHOOK_ALLOW_PRIVATE: boolean.default(false),
  WEBHOOK_WORKER: boolean.default(true),
  WEB_CONCURRENCY: z.string().regex(WEB_CONCURRENCY_FORMAT, 'must be a positive integer or auto').default('1'),
  SESSION_SECRET: z.string().min(16).optional(),
  // `local`, `s3`, or the name of a plugin's driver: an unknown name stops start-up (FileStorageModule).
  STORAGE_DRIVER: z
    .string()
    .regex(/^[a-z][a-z0-9-]{0,31}$/, 'must be a storage driver name (lower case letters, digits, dashes)')
    .default('local'),
  ...S3_ENV,
  SMTP_URL: z
    .string()
    .refine((value) => {
      try {
        const url = new URL(value);
        return /^smtps?:$/.test(url.protocol) && url.hostname !== '';
      } catch {
        return false;
      }
    }, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().trim().min(3).optional(),
  MAIL_RETRY_DELAY_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  SUBSCRIPTION_RENEWAL_LEAD_HOURS: z.coerce
    .number()
    .int()
    .min(0)
    .max(24 * 366)
    .default(72),
  SUBSCRIPTION_GRACE_DAYS: z.coerce.number().int().min(0).max(366).default(7),
  SUBSCRIPTION_SWEEP_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  DOWNLOAD_LIMIT: z.coerce.number().int().min(1).max(1_000_000).default(10),
  DELIVERY_SECRET: z.string().min(32).optional(),
});

/** Never echoed in a configuration error: they carry credentials. */
const SECRET_VARIABLES = new Set([
  'SMTP_URL',
  'SESSION_SECRET',
  'PAYMENT_SANDBOX_SECRET',
  'DELIVERY_SECRET',
  'S3_SECRET_ACCESS_KEY',
  'DATABASE_URL',
  'REDIS_URL',
]);

type Env = z.input<typeof env>;

export interface AppConfig {
  port: number;
  /** HTTP processes: 1 serves in this process; more run a cluster primary that forks them (cluster.ts, primary-config.ts). */
  webConcurrency: number;
  nodeEnv: 'development' | 'production' | 'test';
  isProduction: boolean;
  logLevel: string;
  /** `json`: JSON lines even at a terminal; `auto`: readable lines at a terminal in development. */
  logFormat: 'auto' | 'json';
  urls: { base: string; web: string; pay: string; cdn: string };
  /** Path each surface is mounted at ('' for the root), derived from its URL. */
  paths: { base: string; web: string; pay: string; cdn: string };
  database: { url?: string; poolSize: number };
  dataDir: string;
  /** Payment gateways (README, *Taking payments*); each gateway module reads its own part. */
  payments: PaymentsConfig;
  maxFileBytes: number;
  rateLimitPerMinute: number;
  redisUrl?: string;
  webhooks: { allowPrivate: boolean; runWorker: boolean };
  sessionSecret?: string;
  /** Renewal orders `renewalLeadHours` before end_date, `expired` `graceDays` after it. */
  subscriptions: { renewalLeadHours: number; graceDays: number; sweepSeconds: number };
  /**
   * Buyers' download links and license keys: `limit` downloads per order and file;
   * `secret` signs the links and encrypts the keys (unset: a key file under `$DATA_DIR`, see README).
   */
  /**
   * `fingerprint`: what this process does with the database's fingerprint of the secret
   * (database/delivery-secret-check.ts): the server records it when there is none and is refused
   * by another (`record`, the default); the worker and the CLI are refused by another but record
   * none (`check`), so a misconfigured one cannot claim a database first; `delivery-secret:adopt`
   * replaces it (`adopt`).
   */
  delivery: {
    limit: number;
    secret?: string;
    secretFile: string;
    fingerprint?: 'record' | 'check' | 'adopt';
  };
  /**
   * Where uploaded product files live: `$DATA_DIR/files`, an S3-compatible bucket, or a plugin's
   * driver (its own settings come with the plugin; `directory` is offered to drivers on disk).
   */
  storage: StorageConfig;
  /** Customer emails (README, *Customer emails*): SMTP when `smtpUrl` is set, `.eml` files in `outboxDir` otherwise. */
  mail: {
    smtpUrl?: string;
    /** `MAIL_FROM` as given; unset = `"{store brand}" <no-reply@{host of BASE_URL}>`. */
    from?: string;
    /** Host of `BASE_URL`: the default sender's domain and the right-hand side of Message-IDs. */
    domain: string;
    outboxDir: string;
    /** Seconds before the first retry of a refused message; doubled on each further one. */
    retryDelaySeconds: number;
  };
}

export { ConfigError } from './env-formats';

function pathOf(url: string): string {
  return new URL(url).pathname.replace(/\/+$/, '');
}

export function loadConfig(source: Record<string, string | undefined> = process.env): AppConfig {
  const raw: Record<string, string> = {};
  for (const key of Object.keys(env.shape)) {
    const value = envValue(source, key);
    if (value !== undefined) raw[key] = value;
  }
  const parsed = env.safeParse(raw as Env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue.path[0]);
    const shown = SECRET_VARIABLES.has(name) ? '(value hidden)' : JSON.stringify(raw[name]);
    throw new ConfigError(`Invalid configuration: ${name}=${shown} ${issue.message}`);
  }
  const e = parsed.data;
  const storage = storageConfig(e, e.STORAGE_DRIVER, join(e.DATA_DIR, 'files'));
  const webConcurrency = webConcurrencyOf(e.WEB_CONCURRENCY);
  if (webConcurrency > 1 && !e.DATABASE_URL) {
    // The embedded database lives inside the one process that started it.
    throw new ConfigError(
      `Invalid configuration: WEB_CONCURRENCY=${JSON.stringify(e.WEB_CONCURRENCY)} requires DATABASE_URL (the embedded database serves a single process)`,
    );
  }
  const base = e.BASE_URL ?? `http://localhost:${e.PORT}`;
  const urls = {
    base,
    web: e.WEB_URL ?? `${base}/web`,
    pay: e.PAY_URL ?? `${base}/pay`,
    cdn: e.CDN_URL ?? `${base}/cdn`,
  };
  return {
    port: e.PORT,
    webConcurrency,
    nodeEnv: e.NODE_ENV,
    isProduction: e.NODE_ENV === 'production',
    logLevel: e.LOG_LEVEL ?? defaultLogLevel(e.NODE_ENV),
    logFormat: e.LOG_FORMAT,
    urls,
    paths: { base: pathOf(urls.base), web: pathOf(urls.web), pay: pathOf(urls.pay), cdn: pathOf(urls.cdn) },
    // 20 connections for the service by default, shared out among cluster workers (each pool is
    // per process): WEB_CONCURRENCY=auto on a large machine must not exhaust max_connections.
    database: { url: e.DATABASE_URL, poolSize: e.DATABASE_POOL_SIZE ?? Math.max(4, Math.ceil(20 / webConcurrency)) },
    dataDir: e.DATA_DIR,
    payments: paymentsConfig(e, e.NODE_ENV),
    maxFileBytes: Math.round(e.MAX_FILE_MB * 1024 * 1024),
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    redisUrl: e.REDIS_URL,
    webhooks: { allowPrivate: e.WEBHOOK_ALLOW_PRIVATE, runWorker: e.WEBHOOK_WORKER },
    sessionSecret: e.SESSION_SECRET,
    subscriptions: {
      renewalLeadHours: e.SUBSCRIPTION_RENEWAL_LEAD_HOURS,
      graceDays: e.SUBSCRIPTION_GRACE_DAYS,
      sweepSeconds: e.SUBSCRIPTION_SWEEP_SECONDS,
    },
    delivery: { limit: e.DOWNLOAD_LIMIT, secret: e.DELIVERY_SECRET, secretFile: join(e.DATA_DIR, 'delivery.key') },
    storage,
    mail: {
      smtpUrl: e.SMTP_URL,
      from: e.MAIL_FROM,
      domain: new URL(base).hostname,
      outboxDir: join(e.DATA_DIR, 'outbox'),
      retryDelaySeconds: e.MAIL_RETRY_DELAY_SECONDS,
    },
  };
}

/** For entry points: the configuration, or one line on stderr naming the bad variable and exit 1. */
export function loadConfigOrExit(): AppConfig {
  try {
    return loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}
