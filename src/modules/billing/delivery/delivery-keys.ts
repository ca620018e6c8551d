import { Inject, Injectable } from '@nestjs/common';
import { createHmac } from 'node:crypto';
import { SecretBox } from '../../../common/crypto';
import { AppConfig } from '../../../config/app-config';
import { APP_CONFIG } from '../../../config/config.module';
import { deliverySecret } from '../../../config/delivery-secret';

/**
 * The keys behind buyers' download links and license keys (README, `DELIVERY_SECRET`): one
 * HMAC-derived key signs the links, another encrypts the keys at rest (AES-256-GCM), so a database
 * dump alone holds no usable key.
 */
@Injectable()
export class DeliveryKeys {
  readonly linkKey: Buffer;
  private readonly box: SecretBox;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const secret = deliverySecret(config);
    this.linkKey = createHmac('sha256', secret).update('download-links').digest();
    this.box = new SecretBox(secret, 'license-keys');
  }

  /** `base64url(iv ‖ tag ‖ ciphertext)`. */
  encrypt(plain: string): string {
    return this.box.seal(plain);
  }

  decrypt(sealed: string): string {
    return this.box.open(sealed);
  }
}
