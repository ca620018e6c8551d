import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';
import { defaultLogLevel, envValue, WEB_CONCURRENCY_FORMAT, webConcurrencyOf } from './primary-config';

/**
 * With primary-config.ts (the cluster primary's few settings), the only place that reads
 * `process.env` (decisions §1). Everything else receives a typed, validated {@link AppConfig}; a
 * bad value stops start-up with one line naming the variable.
 */

const httpUrl = z
  .string()
  .url()
  .refine((value) => /^https?:\/\//.test(value), 'must be an http(s) URL')
  .transform((value) => value.replace(/\/+$/, ''));

const boolean = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => ['true', '1', 'yes'].includes(value));

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
  PAYMENT_PROVIDER: z.enum(['sandbox']).default('sandbox'),
  PAYMENT_SANDBOX_SECRET: z.string().min(16).optional(),
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  MAX_FILE_MB: z.coerce.number().positive().max(10240).default(100),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  REDIS_URL: z
    .string()
    .refine((value) => /^rediss?:\/\//.test(value), 'must be a redis:// URL')
    .optional(),
  WEBHOOK_ALLOW_PRIVATE: boolean.default(false),
  WEBHOOK_WORKER: boolean.default(true),
  WEB_CONCURRENCY: z
    .string()
    .regex(WEB_CONCURRENCY_FORMAT, 'must be a positive integer or auto')
    .default('1'),
  SESSION_SECRET: z.string().min(16).optional(),
  STORAGE_DRIVER: z.enum(['local', 's3']).default('local'),
  S3_BUCKET: z.string().min(1).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ENDPOINT: httpUrl.optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: boolean.default(false),
  SUBSCRIPTION_RENEWAL_LEAD_HOURS: z.coerce.number().int().min(0).max(24 * 366).default(72),
  SUBSCRIPTION_GRACE_DAYS: z.coerce.number().int().min(0).max(366).default(7),
  SUBSCRIPTION_SWEEP_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
});

type Env = z.input<typeof env>;

export interface AppConfig {
  port: number;
  /** HTTP processes: 1 serves in this process; more run a cluster primary that forks them (cluster.ts, primary-config.ts). */
  webConcurrency: number;
  nodeEnv: 'development' | 'production' | 'test';
  isProduction: boolean;
  logLevel: string;
  urls: { base: string; web: string; pay: string; cdn: string };
  /** Path each surface is mounted at ('' for the root), derived from its URL. */
  paths: { base: string; web: string; pay: string; cdn: string };
  database: { url?: string; poolSize: number };
  dataDir: string;
  paymentProvider: 'sandbox';
  /** HMAC-SHA256 key the sandbox gateway's callbacks are signed with; random per boot when unset. */
  paymentSandboxSecret: string;
  maxFileBytes: number;
  rateLimitPerMinute: number;
  redisUrl?: string;
  webhooks: { allowPrivate: boolean; runWorker: boolean };
  sessionSecret?: string;
  /** decisions §11: renewal orders `renewalLeadHours` before end_date, `expired` `graceDays` after it. */
  subscriptions: { renewalLeadHours: number; graceDays: number; sweepSeconds: number };
  /** Where uploaded product files live: `$DATA_DIR/files`, or an S3-compatible bucket. */
  storage:
    | { driver: 'local'; directory: string }
    | {
        driver: 's3';
        bucket: string;
        region: string;
        endpoint?: string;
        accessKeyId?: string;
        secretAccessKey?: string;
        forcePathStyle: boolean;
      };
}

export class ConfigError extends Error {}

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
    throw new ConfigError(`Invalid configuration: ${name}=${JSON.stringify(raw[name])} ${issue.message}`);
  }
  const e = parsed.data;
  if (e.STORAGE_DRIVER === 's3' && !e.S3_BUCKET) {
    throw new ConfigError('Invalid configuration: S3_BUCKET is required when STORAGE_DRIVER=s3');
  }
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
    urls,
    paths: { base: pathOf(urls.base), web: pathOf(urls.web), pay: pathOf(urls.pay), cdn: pathOf(urls.cdn) },
    // 20 connections for the service by default, shared out among cluster workers (each pool is
    // per process): WEB_CONCURRENCY=auto on a large machine must not exhaust max_connections.
    database: { url: e.DATABASE_URL, poolSize: e.DATABASE_POOL_SIZE ?? Math.max(4, Math.ceil(20 / webConcurrency)) },
    dataDir: e.DATA_DIR,
    paymentProvider: e.PAYMENT_PROVIDER,
    paymentSandboxSecret: e.PAYMENT_SANDBOX_SECRET ?? randomBytes(32).toString('hex'),
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
    storage:
      e.STORAGE_DRIVER === 's3'
        ? {
            driver: 's3',
            bucket: e.S3_BUCKET!,
            region: e.S3_REGION,
            endpoint: e.S3_ENDPOINT,
            accessKeyId: e.S3_ACCESS_KEY_ID,
            secretAccessKey: e.S3_SECRET_ACCESS_KEY,
            forcePathStyle: e.S3_FORCE_PATH_STYLE,
          }
        : { driver: 'local', directory: join(e.DATA_DIR, 'files') },
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
