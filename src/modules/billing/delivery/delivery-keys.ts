import { Inject, Injectable, Logger } from '@nestjs/common';
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { AppConfig } from '../../../config/app-config';
import { APP_CONFIG } from '../../../config/config.module';

/**
 * The secret behind buyers' download links and license keys (README, `DELIVERY_SECRET`): one
 * HMAC-derived key signs the links, another encrypts the keys at rest (AES-256-GCM). Without
 * `DELIVERY_SECRET` a random secret is kept in `$DATA_DIR/delivery.key` (created once, mode 0600),
 * so links and keys survive restarts and a database dump alone holds no usable key.
 */
@Injectable()
export class DeliveryKeys {
  private readonly logger = new Logger(DeliveryKeys.name);
  readonly linkKey: Buffer;
  private readonly encryptionKey: Buffer;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const secret = config.delivery.secret ?? this.secretFromFile(config.delivery.secretFile);
    this.linkKey = createHmac('sha256', secret).update('download-links').digest();
    this.encryptionKey = createHmac('sha256', secret).update('license-keys').digest();
  }

  /** `base64url(iv ‖ tag ‖ ciphertext)`. */
  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.encryptionKey, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  }

  decrypt(sealed: string): string {
    const raw = Buffer.from(sealed, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.encryptionKey, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }

  private secretFromFile(path: string): string {
    try {
      return readFileSync(path, 'utf8').trim();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    mkdirSync(dirname(path), { recursive: true });
    try {
      // `wx`: of several processes starting at once, one writes and the others read its secret.
      writeFileSync(path, randomBytes(32).toString('hex'), { flag: 'wx', mode: 0o600 });
      this.logger.warn(`DELIVERY_SECRET is not set: created ${path} (keep it with the database's backups)`);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    return readFileSync(path, 'utf8').trim();
  }
}
