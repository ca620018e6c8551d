import { isStorableText } from '../../../common/http/input-text';

/**
 * Client credentials from HTTP Basic (RFC 6749 §2.3.1: each part form-urlencoded), or undefined
 * when the request does not use Basic.
 */
export function basicCredentials(header: string | undefined): { client_id: string; client_secret: string } | undefined {
  const match = header ? /^Basic +([A-Za-z0-9+/=]+) *$/i.exec(header) : null;
  if (!match) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  const part = (value: string) => {
    try {
      return decodeURIComponent(value.replace(/\+/g, ' '));
    } catch {
      return value;
    }
  };
  const credentials = { client_id: part(decoded.slice(0, colon)), client_secret: part(decoded.slice(colon + 1)) };
  // Input enters here as well as in the body: text PostgreSQL would refuse is simply wrong credentials.
  if (!isStorableText(credentials.client_id) || !isStorableText(credentials.client_secret))
    return { client_id: '', client_secret: '' };
  return credentials;
}
