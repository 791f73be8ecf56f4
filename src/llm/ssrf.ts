/**
 * Address policy for calling endpoints that strangers submit (issue 11 item 5).
 *
 * Only public unicast addresses are allowed: ipaddr.js's range() must be 'unicast' after an IPv4-mapped
 * IPv6 address is reduced to its IPv4 form. Refused: loopback, private (10/8, 172.16/12, 192.168/16),
 * link-local (169.254/16, fe80::/10, so cloud metadata at 169.254.169.254), CGNAT (100.64/10), multicast,
 * unspecified (0.0.0.0, ::), broadcast, reserved, benchmarking, unique-local (fc00::/7), NAT64/6to4/Teredo
 * (they embed an IPv4 address), and anything that does not parse.
 *
 * The check happens when the connection is made, inside an undici dispatcher, so DNS rebinding does not
 * get round it and redirects are checked the same way (every hop opens its connection through it):
 * 1. a literal address in the URL is checked before connecting (Node skips `lookup` for literals);
 * 2. a host name is resolved by a `lookup` that refuses the name when any of its addresses is non-public;
 * 3. after connecting, the socket's remote address is checked again (the address actually connected to).
 */
import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, buildConnector } from 'undici';

export const REFUSED_CODE = 'ERR_SVC_ADDRESS_REFUSED';

/** The error raised inside the dispatcher; the client maps it to LlmError kind 'refused'. */
export class AddressRefusedError extends Error {
  readonly code = REFUSED_CODE;
  constructor(readonly address: string) {
    super(`refused to connect to the non-public address ${address}`);
    this.name = 'AddressRefusedError';
  }
}

/** True for a public unicast IPv4 or IPv6 address (see the header); false for anything else, including garbage. */
export function isPublicAddress(address: string): boolean {
  const a = address.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(a)) return false;
  try {
    return ipaddr.process(a).range() === 'unicast';
  } catch {
    return false;
  }
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

type Allow = (address: string) => boolean;

/** dns.lookup that refuses a name when any address it resolves to is not allowed (net.connect's `lookup` hook). */
export function checkedLookup(allow: Allow) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '');
      const list = addresses as dns.LookupAddress[];
      const bad = list.find((a) => !allow(a.address));
      if (bad || list.length === 0) return callback(new AddressRefusedError(bad?.address ?? hostname), '');
      if (options.all) return callback(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };
}

/**
 * An undici Agent whose every connection (redirects included) goes to an allowed address only: public
 * addresses by default; `allow` replaces the policy (the tests use it to let one loopback server in).
 */
export function publicOnlyAgent(opts: { connectTimeoutMs?: number; allow?: Allow } = {}): Agent {
  const allow = opts.allow ?? isPublicAddress;
  const base = buildConnector({
    lookup: checkedLookup(allow) as never,
    timeout: opts.connectTimeoutMs ?? 10_000,
  });
  const connect: buildConnector.connector = (options, callback) => {
    const host = options.hostname.replace(/^\[|\]$/g, '');
    if (net.isIP(host) && !allow(host)) {
      callback(new AddressRefusedError(host), null);
      return;
    }
    base(options, (err, socket) => {
      if (err) return callback(err, null);
      const remote = socket?.remoteAddress;
      if (!remote || !allow(remote)) {
        socket?.destroy();
        return callback(new AddressRefusedError(remote ?? host), null);
      }
      callback(null, socket!);
    });
  };
  return new Agent({ connect });
}
