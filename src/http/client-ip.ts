/**
 * Who is the client, for per-IP rate limits.
 *
 * Policy: the socket's peer address, unless SVC_TRUST_PROXY names a forwarding header and how many proxies
 * in front of the service append to it (`x-forwarded-for:1`). Then the address is the one that many hops
 * from the right of that header, because only the rightmost `hops` entries were written by proxies we
 * trust; anything further left came from the client and may be forged. A header with fewer entries than
 * hops yields its leftmost entry (every entry was written by a trusted proxy); a missing or malformed value
 * falls back to the socket address. So a spoofed X-Forwarded-For never selects, and never resets, a limit.
 *
 * IPv6 clients are limited per /64 (one subscriber's usual allocation), so walking through the addresses
 * of one network does not buy a fresh window.
 */
import { isIP } from 'node:net';
import type { TrustProxy } from '../config.ts';

type Headers = Record<string, string | string[] | undefined>;

function normalize(raw: string | undefined): string | null {
  if (!raw) return null;
  let a = raw.trim();
  const v4port = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(a);
  if (v4port) a = v4port[1]!;
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(a);
  if (bracketed) a = bracketed[1]!;
  a = a.toLowerCase().replace(/%.*$/, '');
  const kind = isIP(a);
  if (kind === 6) {
    // IPv4-mapped (::ffff:a.b.c.d, ::ffff:7f00:1, 0:0:0:0:0:ffff:…) is the IPv4 client: fold it, so it is
    // limited per address like IPv4 and not per the one /64 all mapped addresses share.
    const g = ipv6Groups(a);
    if (g?.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff)
      return `${g[6]! >> 8}.${g[6]! & 255}.${g[7]! >> 8}.${g[7]! & 255}`;
  }
  return kind ? a : null;
}

/** The client's address as the service should believe it. */
export function clientIp(socketAddress: string | undefined, headers: Headers, trust: TrustProxy | null): string {
  const socket = normalize(socketAddress) ?? 'unknown';
  if (!trust) return socket;
  const raw = headers[trust.header];
  const list = (Array.isArray(raw) ? raw.join(',') : (raw ?? ''))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (list.length === 0) return socket;
  return normalize(list[Math.max(0, list.length - trust.hops)]) ?? socket;
}

/** Eight 16-bit groups of an IPv6 address, or null. */
function ipv6Groups(addr: string): number[] | null {
  let s = addr;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (v4) {
    const [a, b, c, d] = v4[1]!.split('.').map(Number) as [number, number, number, number];
    s = `${s.slice(0, -v4[1]!.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = s.split('::') as [string, string | undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const fill = tail === undefined ? [] : Array<string>(8 - h.length - t.length).fill('0');
  const groups = [...h, ...fill, ...t].map((g) => Number.parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => g >= 0 && g <= 0xffff) ? groups : null;
}

/** The rate-limit subject for an address: IPv4 as is, IPv6 as its /64 network. */
export function rateLimitSubject(ip: string): string {
  if (isIP(ip) !== 6) return ip;
  const g = ipv6Groups(ip);
  return g
    ? `${g
        .slice(0, 4)
        .map((x) => x.toString(16))
        .join(':')}::/64`
    : ip;
}
