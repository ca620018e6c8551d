import { z } from 'zod';

/** The formats environment variables are read in, shared by app-config.ts and provider-config.ts. */

export const httpUrl = z
  .string()
  .url()
  .refine((value) => /^https?:\/\//.test(value), 'must be an http(s) URL')
  .transform((value) => value.replace(/\/+$/, ''));

export const boolean = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => ['true', '1', 'yes'].includes(value));

/** A bad variable: one line naming it, and the service does not start. */
export class ConfigError extends Error {}
