import { lookup } from 'node:dns/promises';
import { BlockList, isIP, isIPv4 } from 'node:net';

/**
 * SSRF protection (README, *Choices where the contract is silent*): under `NODE_ENV=production` a webhook may not reach loopback,
 * private, link-local, CGNAT, metadata or otherwise non-public addresses. The address a hostname
 * resolves to is checked and then used for the connection itself, so a DNS answer that changes
 * between the check and the connection cannot smuggle in an internal address.
 */

const blocked = new BlockList();
const v4 = (net: string, prefix: number) => blocked.addSubnet(net, prefix, 'ipv4');
const v6 = (net: string, prefix: number) => blocked.addSubnet(net, prefix, 'ipv6');

v4('0.0.0.0', 8); // "this network"
v4('10.0.0.0', 8); // private
v4('100.64.0.0', 10); // CGNAT (also Alibaba's metadata 100.100.100.200)
v4('127.0.0.0', 8); // loopback
v4('169.254.0.0', 16); // link-local, cloud metadata 169.254.169.254
v4('172.16.0.0', 12); // private
v4('192.0.0.0', 24); // IETF protocol assignments (Oracle metadata 192.0.0.192)
v4('192.0.2.0', 24); // documentation
v4('192.88.99.0', 24); // 6to4 relay anycast
v4('192.168.0.0', 16); // private
v4('198.18.0.0', 15); // benchmarking
v4('198.51.100.0', 24); // documentation
v4('203.0.113.0', 24); // documentation
v4('224.0.0.0', 4); // multicast
v4('240.0.0.0', 4); // reserved, broadcast
v6('::', 128); // unspecified
v6('::1', 128); // loopback
v6('100::', 64); // discard
v6('64:ff9b:1::', 48); // NAT64 for local use (RFC 8215): never a public destination
v6('2001:db8::', 32); // documentation
v6('fc00::', 7); // unique local (AWS metadata fd00:ec2::254)
v6('fe80::', 10); // link-local
v6('fec0::', 10); // deprecated site-local
v6('ff00::', 8); // multicast

/** The eight 16-bit groups of an IPv6 address (with or without an embedded dotted IPv4 tail). */
function hextets(address: string): number[] {
  let text = address.toLowerCase().split('%')[0];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1].split('.').map(Number);
    text = text.slice(0, -dotted[1].length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const middle = tail === undefined ? [] : new Array(8 - left.length - right.length).fill('0');
  return [...left, ...middle, ...right].map((group) => parseInt(group, 16));
}

const ipv4Of = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;

/** The IPv4 address an IPv6 address carries (mapped, compatible, translated, NAT64, 6to4), if any. */
function embeddedIpv4(address: string): string | undefined {
  const h = hextets(address);
  const zeros = (from: number, to: number) => h.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && (h[5] === 0xffff || h[5] === 0) && (h[6] !== 0 || h[7] > 1)) return ipv4Of(h[6], h[7]);
  // IPv4-translated (SIIT, RFC 2765): ::ffff:0:a.b.c.d
  if (zeros(0, 4) && h[4] === 0xffff && h[5] === 0) return ipv4Of(h[6], h[7]);
  if (h[0] === 0x64 && h[1] === 0xff9b && zeros(2, 6)) return ipv4Of(h[6], h[7]);
  if (h[0] === 0x2002) return ipv4Of(h[1], h[2]);
  return undefined;
}

/** True for any address a webhook must not reach in production. */
export function isNonPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  if (family === 4) return blocked.check(address, 'ipv4');
  const inner = embeddedIpv4(address);
  if (inner !== undefined && blocked.check(inner, 'ipv4')) return true;
  return blocked.check(address.split('%')[0], 'ipv6');
}

export class DestinationRefusedError extends Error {}

export interface ResolvedDestination {
  url: URL;
  /** The checked address to connect to. */
  address: string;
  family: 4 | 6;
}

/**
 * Resolves the URL's host and, when `guard` is on, refuses it if any of its addresses is not
 * public (an attacker controlling DNS could otherwise alternate between answers).
 */
export async function resolveDestination(rawUrl: string, guard: boolean): Promise<ResolvedDestination> {
  const url = new URL(rawUrl);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new DestinationRefusedError('Only http and https URLs can receive webhooks.');
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host)
    ? [{ address: host, family: isIPv4(host) ? 4 : 6 }]
    : await lookup(host, { all: true, verbatim: true }).catch(() => {
        throw new DestinationRefusedError(`${host} could not be resolved.`);
      });
  if (!addresses.length) throw new DestinationRefusedError(`${host} could not be resolved.`);
  if (guard) {
    const refused = addresses.find((a) => isNonPublicAddress(a.address));
    if (refused) {
      throw new DestinationRefusedError(`${host} resolves to a non-public address (${refused.address}).`);
    }
  }
  const chosen = addresses[0];
  return { url, address: chosen.address, family: chosen.family === 6 ? 6 : 4 };
}
