import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long a download link shown on a page or in an email stays valid. */
export const DOWNLOAD_LINK_TTL_MS = 24 * 60 * 60 * 1000;

export interface DownloadGrant {
  orderId: number;
  fileId: number;
  /** Whole seconds since the epoch. */
  expiresAt: number;
}

const BODY_BYTES = 12;
const MAC_BYTES = 16;

function mac(key: Buffer, body: Buffer): Buffer {
  return createHmac('sha256', key).update('download\0').update(body).digest().subarray(0, MAC_BYTES);
}

/**
 * The token of `{pay_url}/download/{token}`: order id, file id and expiry (3 × uint32) with a
 * 128-bit HMAC-SHA-256 tag, base64url (38 characters). Nothing is stored: the signature is the proof.
 */
export function signDownload(key: Buffer, grant: DownloadGrant): string {
  const body = Buffer.alloc(BODY_BYTES);
  body.writeUInt32BE(grant.orderId, 0);
  body.writeUInt32BE(grant.fileId, 4);
  body.writeUInt32BE(grant.expiresAt, 8);
  return Buffer.concat([body, mac(key, body)]).toString('base64url');
}

/** The grant of a token this key signed, or null (malformed, tampered with, another key's). */
export function verifyDownload(key: Buffer, token: string): DownloadGrant | null {
  if (!/^[A-Za-z0-9_-]{38}$/.test(token)) return null;
  const raw = Buffer.from(token, 'base64url');
  // Canonical form only: the last character carries 4 unused bits that decoding ignores.
  if (raw.length !== BODY_BYTES + MAC_BYTES || raw.toString('base64url') !== token) return null;
  const body = raw.subarray(0, BODY_BYTES);
  if (!timingSafeEqual(raw.subarray(BODY_BYTES), mac(key, body))) return null;
  return { orderId: body.readUInt32BE(0), fileId: body.readUInt32BE(4), expiresAt: body.readUInt32BE(8) };
}

/** The network a download came from, never the address: `/24` of IPv4, `/48` of IPv6. */
export function ipPrefix(ip: string | undefined): string | null {
  if (!ip) return null;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  const v4 = mapped ? mapped[1] : ip;
  if (/^\d+\.\d+\.\d+\.\d+$/.test(v4)) return `${v4.split('.').slice(0, 3).join('.')}.0/24`;
  if (!ip.includes(':')) return null;
  // Expand `::` to find the first three groups.
  const [head, tail] = ip.split('%')[0].split('::');
  const left = head ? head.split(':') : [];
  const right = tail !== undefined && tail !== '' ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  const first = groups.slice(0, 3).map((g) => parseInt(g || '0', 16).toString(16));
  return `${first.join(':')}::/48`;
}
