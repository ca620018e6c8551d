import { randomBytes } from 'node:crypto';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { randomBase62 } from '../../../common/crypto';

/** A new signing secret in the Standard Webhooks form: `whsec_` + base64 of 24 random bytes. */
export function generateSigningSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/** A Standard Webhooks message id (`webhook-id`). */
export function generateMessageId(): string {
  return `msg_${randomBase62(27)}`;
}

/**
 * The Standard Webhooks headers for one message. A grouped delivery carries one `v1,…` signature
 * per webhook secret of the group, space-separated, so each subscriber verifies with its own secret.
 */
export function signatureHeaders(
  messageId: string,
  timestamp: Date,
  body: string,
  secrets: string[],
): { 'webhook-id': string; 'webhook-timestamp': string; 'webhook-signature': string } {
  const signatures = [...new Set(secrets)].map((secret) =>
    new StandardWebhook(secret).sign(messageId, timestamp, body),
  );
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
  };
}
