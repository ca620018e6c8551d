import { Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { AppConfig } from './app-config';

const logger = new Logger('DeliverySecret');
const loaded = new Map<string, string>();

/**
 * The secret behind buyers' download links and what is kept encrypted at rest (README,
 * `DELIVERY_SECRET`): the variable, or else a random secret kept in `$DATA_DIR/delivery.key`
 * (created once, mode 0600), so links and sealed values survive restarts and a database dump alone
 * holds none of them. Read once per file by each process.
 */
export function deliverySecret(config: AppConfig): string {
  if (config.delivery.secret) return config.delivery.secret;
  const path = config.delivery.secretFile;
  let secret = loaded.get(path);
  if (secret === undefined) {
    secret = secretFromFile(path);
    loaded.set(path, secret);
  }
  return secret;
}

function secretFromFile(path: string): string {
  if (!existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true });
    try {
      // `wx`: of several processes starting at once, one writes and the others read its secret.
      writeFileSync(path, randomBytes(32).toString('hex'), { flag: 'wx', mode: 0o600 });
      logger.warn(`DELIVERY_SECRET is not set: created ${path} (keep it with the database's backups)`);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  // Another process may have created the file and not written it yet: wait a moment for its secret.
  for (let tries = 0; tries < 50; tries++) {
    const secret = readFileSync(path, 'utf8').trim();
    if (secret) return secret;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
  }
  throw new Error(`${path} is empty: remove it, or set DELIVERY_SECRET`);
}
