import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { boolean, ConfigError, httpUrl } from './env-formats';

/*
 * The settings of the providers the service talks to: payment gateways (the sandbox, M-Pesa,
 * Stripe) and S3-compatible storage. Read with the rest of the configuration by app-config.ts, the
 * only other reader of the environment; each gateway and driver reads its own part of AppConfig.
 */

export const PAYMENT_PROVIDER_ENV = {
  PAYMENT_SANDBOX: boolean.optional(),
  PAYMENT_SANDBOX_SECRET: z.string().min(16).optional(),
  PAYMENT_RECONCILE_SECONDS: z.coerce.number().positive().max(3600).default(30),
  MPESA_API_KEY: z.string().min(1).optional(),
  MPESA_PUBLIC_KEY: z.string().min(1).optional(),
  MPESA_SERVICE_PROVIDER_CODE: z.string().min(1).optional(),
  MPESA_INITIATOR_IDENTIFIER: z.string().min(1).optional(),
  MPESA_SECURITY_CREDENTIAL: z.string().min(1).optional(),
  MPESA_API_HOST: z
    .string()
    .regex(/^[a-z0-9.-]+(:\d+)?$/i, 'must be a host name')
    .default('api.vm.co.mz'),
  MPESA_ORIGIN: z.string().min(1).default('developer.mpesa.vm.co.mz'),
  MPESA_C2B_URL: httpUrl.optional(),
  MPESA_QUERY_URL: httpUrl.optional(),
  MPESA_REVERSAL_URL: httpUrl.optional(),
  MPESA_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(120_000),
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  STRIPE_API_URL: httpUrl.optional(),
};

export const S3_ENV = {
  S3_BUCKET: z.string().min(1).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ENDPOINT: httpUrl.optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: boolean.default(false),
};

type PaymentProviderEnv = z.output<z.ZodObject<typeof PAYMENT_PROVIDER_ENV>>;
type S3Env = z.output<z.ZodObject<typeof S3_ENV>>;

export interface MpesaConfig {
  apiKey: string;
  /** The RSA public key of Vodacom's portal, as PEM. */
  publicKey: string;
  serviceProviderCode: string;
  /** For reversals (refunds); refunds are refused by the gateway adapter without them. */
  initiatorIdentifier?: string;
  securityCredential?: string;
  origin: string;
  urls: { c2b: string; query: string; reversal: string };
  /** How long a C2B request may take before its outcome is `unknown` (120 s). */
  timeoutMs: number;
}

export interface StripeConfig {
  secretKey: string;
  webhookSecret: string;
  /** Where the SDK sends its requests instead of api.stripe.com (tests). */
  apiUrl?: string;
}

export interface PaymentsConfig {
  /** `PAYMENT_SANDBOX`: the sandbox serves every method no real gateway serves (default: not in production). */
  sandbox: boolean;
  /** HMAC-SHA256 key the sandbox gateway's callbacks are signed with; random per boot when unset. */
  sandboxSecret: string;
  /** How often unconfirmed attempts are looked up (30 s). */
  reconcileIntervalMs: number;
  mpesa?: MpesaConfig;
  stripe?: StripeConfig;
}

/** Where uploaded product files live: `$DATA_DIR/files`, an S3-compatible bucket, or a plugin's driver. */
export type StorageConfig =
  { driver: 'local'; directory: string } | { driver: string; directory: string } | S3StorageConfig;

export interface S3StorageConfig {
  driver: 's3';
  bucket: string;
  region: string;
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
}

/** Vodacom's portal hands out the key as bare base64 (DER); PEM is accepted as well. */
function publicKeyPem(value: string): string {
  if (value.includes('-----BEGIN')) return value.replace(/\\n/g, '\n');
  const body = value.replace(/\s+/g, '');
  return `-----BEGIN PUBLIC KEY-----\n${body.match(/.{1,64}/g)!.join('\n')}\n-----END PUBLIC KEY-----\n`;
}

export function paymentsConfig(e: PaymentProviderEnv, nodeEnv: string): PaymentsConfig {
  const mpesaKeys = ['MPESA_API_KEY', 'MPESA_PUBLIC_KEY', 'MPESA_SERVICE_PROVIDER_CODE'] as const;
  const mpesaGiven = mpesaKeys.filter((key) => e[key] !== undefined);
  if (mpesaGiven.length && mpesaGiven.length < mpesaKeys.length) {
    const missing = mpesaKeys.find((key) => e[key] === undefined)!;
    throw new ConfigError(`Invalid configuration: ${missing} is required when ${mpesaGiven[0]} is set`);
  }
  if (e.STRIPE_SECRET_KEY && !e.STRIPE_WEBHOOK_SECRET) {
    throw new ConfigError('Invalid configuration: STRIPE_WEBHOOK_SECRET is required when STRIPE_SECRET_KEY is set');
  }
  const host = e.MPESA_API_HOST;
  return {
    sandbox: e.PAYMENT_SANDBOX ?? nodeEnv !== 'production',
    sandboxSecret: e.PAYMENT_SANDBOX_SECRET ?? randomBytes(32).toString('hex'),
    reconcileIntervalMs: Math.round(e.PAYMENT_RECONCILE_SECONDS * 1000),
    mpesa: mpesaGiven.length
      ? {
          apiKey: e.MPESA_API_KEY!,
          publicKey: publicKeyPem(e.MPESA_PUBLIC_KEY!),
          serviceProviderCode: e.MPESA_SERVICE_PROVIDER_CODE!,
          initiatorIdentifier: e.MPESA_INITIATOR_IDENTIFIER,
          securityCredential: e.MPESA_SECURITY_CREDENTIAL,
          origin: e.MPESA_ORIGIN,
          urls: {
            // Vodacom's paths end in a slash; httpUrl strips it from an override, so it comes back here.
            c2b: `${e.MPESA_C2B_URL ?? `https://${host}:18352/ipg/v1x/c2bPayment/singleStage`}/`,
            query: `${e.MPESA_QUERY_URL ?? `https://${host}:18353/ipg/v1x/queryTransactionStatus`}/`,
            reversal: `${e.MPESA_REVERSAL_URL ?? `https://${host}:18354/ipg/v1x/reversal`}/`,
          },
          timeoutMs: e.MPESA_TIMEOUT_MS,
        }
      : undefined,
    stripe: e.STRIPE_SECRET_KEY
      ? { secretKey: e.STRIPE_SECRET_KEY, webhookSecret: e.STRIPE_WEBHOOK_SECRET!, apiUrl: e.STRIPE_API_URL }
      : undefined,
  };
}

/** The storage `STORAGE_DRIVER` names, with the S3 settings when it is `s3`. */
export function storageConfig(e: S3Env, driver: string, directory: string): StorageConfig {
  if (driver !== 's3') return { driver, directory };
  if (!e.S3_BUCKET) throw new ConfigError('Invalid configuration: S3_BUCKET is required when STORAGE_DRIVER=s3');
  return {
    driver: 's3',
    bucket: e.S3_BUCKET,
    region: e.S3_REGION,
    endpoint: e.S3_ENDPOINT,
    accessKeyId: e.S3_ACCESS_KEY_ID,
    secretAccessKey: e.S3_SECRET_ACCESS_KEY,
    forcePathStyle: e.S3_FORCE_PATH_STYLE,
  };
}
