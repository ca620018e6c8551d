import { randomBytes } from 'node:crypto';
import { continuedBytes } from '../../../src/modules/catalog/cdn/file-responder';
import { ipPrefix, signDownload, verifyDownload } from '../../../src/modules/billing/downloads/download-link';

describe('download links (signed, stateless)', () => {
  const key = randomBytes(32);
  const grant = { orderId: 42, fileId: 2_147_483_647, expiresAt: 1_900_000_000 };

  it('round-trips a grant in 38 URL-safe characters', () => {
    const token = signDownload(key, grant);
    expect(token).toMatch(/^[A-Za-z0-9_-]{38}$/);
    expect(verifyDownload(key, token)).toEqual(grant);
  });

  it('refuses another key, any changed character, and anything malformed', () => {
    const token = signDownload(key, grant);
    expect(verifyDownload(randomBytes(32), token)).toBeNull();
    for (let i = 0; i < token.length; i++) {
      const changed = token.slice(0, i) + (token[i] === 'A' ? 'B' : 'A') + token.slice(i + 1);
      expect(verifyDownload(key, changed)).toBeNull();
    }
    expect(verifyDownload(key, token.slice(1))).toBeNull();
    expect(verifyDownload(key, `${token}A`)).toBeNull();
    expect(verifyDownload(key, token.replace(/.$/, '.'))).toBeNull();
  });

  it('keeps the network of an address, never the address', () => {
    expect(ipPrefix('203.0.113.77')).toBe('203.0.113.0/24');
    expect(ipPrefix('::ffff:198.51.100.9')).toBe('198.51.100.0/24');
    expect(ipPrefix('2001:db8:abcd:12::1')).toBe('2001:db8:abcd::/48');
    expect(ipPrefix('2001:db8::1')).toBe('2001:db8:0::/48');
    expect(ipPrefix('::1')).toBe('0:0:0::/48');
    expect(ipPrefix(undefined)).toBeNull();
    expect(ipPrefix('not-an-ip')).toBeNull();
  });

  it('a Range continues a download only when it starts past byte 0, asking for the bytes it names', () => {
    expect(continuedBytes(undefined, 1000)).toBeNull();
    expect(continuedBytes('bytes=0-', 1000)).toBeNull();
    expect(continuedBytes('bytes=0-99', 1000)).toBeNull();
    expect(continuedBytes('bytes=-500', 1000)).toBeNull();
    expect(continuedBytes('bytes=0-9,100-', 1000)).toBeNull();
    expect(continuedBytes('bytes=100-', 1000)).toBe(900);
    expect(continuedBytes('bytes=100-199', 1000)).toBe(100);
    expect(continuedBytes('bytes=1-', 1000)).toBe(999);
    expect(continuedBytes('bytes=100-99999', 1000)).toBe(900);
    expect(continuedBytes('bytes=1000-', 1000)).toBe(0);
  });
});
