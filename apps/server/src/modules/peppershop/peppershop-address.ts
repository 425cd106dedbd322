import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Whether the server may connect to `address` (an IP literal). Only public unicast addresses may be reached, so a
 * shop address cannot point the server at its own network: private, loopback, link-local (cloud metadata at
 * 169.254.169.254), unique-local, carrier-grade NAT, multicast, reserved and the IPv6 forms that embed an IPv4
 * address are refused. With `allowLoopback` (demo mode) loopback is allowed too, for a stand-in shop on the machine.
 */
export function isReachableAddress(address: string, allowLoopback: boolean): boolean {
  if (!ipaddr.isValid(address)) return false;
  // An IPv4 address written as IPv6 (::ffff:127.0.0.1) is judged as the IPv4 address it is.
  const range = ipaddr.process(address).range();
  return range === 'unicast' || (allowLoopback && range === 'loopback');
}

/** Thrown by the lookup when a name resolves to an address the server may not reach. */
export class AddressRefused extends Error {
  readonly code = 'ADDRESS_REFUSED';
  constructor(readonly host: string) {
    super(`${host} resolves to an address the server may not reach`);
    this.name = 'AddressRefused';
  }
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for http(s).request that resolves the name and refuses it when ANY of its addresses may not be
 * reached; the socket then connects to the addresses checked here, so a name cannot resolve to a public address
 * for the check and to an internal one for the connection (DNS rebinding).
 */
export function checkedLookup(allowLoopback: boolean) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      if (addresses.length === 0 || !addresses.every((a) => isReachableAddress(a.address, allowLoopback))) {
        return callback(new AddressRefused(hostname), []);
      }
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

/** The host of a URL as an IP literal (brackets of IPv6 removed), or null for a name. */
export function ipLiteralOf(url: URL): string | null {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return net.isIP(host) ? host : null;
}
