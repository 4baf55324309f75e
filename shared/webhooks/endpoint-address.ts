import { promises as dns, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Where webhook endpoints may point. */
export interface EndpointPolicy {
  /**
   * True only in the local runtime: `http:` and `https:` URLs to loopback hosts (127.0.0.0/8, ::1,
   * `localhost`) are then allowed, so developers can receive deliveries. Every other URL still
   * follows the public rules.
   */
  allowLocalUrls: boolean;
}

/** Why an endpoint URL or address was refused. */
export type EndpointAddressRefusal = 'invalid_url' | 'scheme' | 'credentials' | 'host' | 'private_address' | 'unresolvable';

/** An endpoint URL or its addresses break the rules; `reason` is for machines, `message` for people. */
export class EndpointAddressError extends Error {
  constructor(
    readonly reason: EndpointAddressRefusal,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'EndpointAddressError';
  }
}

/** The longest endpoint URL accepted, in characters. */
export const ENDPOINT_URL_MAX_LENGTH = 2048;

/** Names that never resolve to the public internet (RFC 6761, RFC 6762, RFC 8375, cloud-internal DNS). */
const INTERNAL_NAME_SUFFIXES = ['.localhost', '.local', '.internal', '.home.arpa'];

/** Public IPv6 unicast lives in 2000::/3 (IANA); everything else is local, special or unassigned. */
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');

/** `ip` parsed, if it is an address in plain text form (`net.isIP`) without a zone id; undefined otherwise. */
function parseAddress(ip: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const family = isIP(ip);
  if (family === 0 || ip.includes('%')) return undefined;
  try {
    // ipaddr.js reads the deprecated IPv4-compatible form ::a.b.c.d as IPv4-mapped ::ffff:a.b.c.d,
    // which is not where a socket would connect: hand it IPv6 in all-hex form (the URL parser's).
    return family === 6 ? ipaddr.IPv6.parse(new URL(`http://[${ip}]/`).hostname.slice(1, -1)) : ipaddr.IPv4.parse(ip);
  } catch {
    return undefined;
  }
}

/** A host name without the brackets URLs put around IPv6 literals, nor DNS's root dot. */
function bareHost(hostname: string): string {
  const unbracketed = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return unbracketed.endsWith('.') ? unbracketed.slice(0, -1) : unbracketed;
}

/**
 * Whether `ip` is a global unicast address that a webhook may be delivered to. Everything else is
 * refused: loopback, private (RFC 1918), link-local (including the instance metadata address
 * 169.254.169.254 and fe80::/10), carrier-grade NAT, unspecified, broadcast, multicast, reserved,
 * benchmarking and documentation ranges, IPv6 unique local (fc00::/7), and all IPv6 outside
 * 2000::/3. An IPv4-mapped IPv6 address (::ffff:a.b.c.d) is judged by its IPv4 address. The
 * transition forms that embed an IPv4 address (IPv4-compatible ::a.b.c.d, NAT64 64:ff9b::/96,
 * 6to4 2002::/16, Teredo 2001::/32) are refused outright: webhooks never need them, and they are
 * the usual way around an IPv4 block list.
 *
 * Only the plain textual forms count as addresses (`net.isIP`); zone ids (`fe80::1%eth0`) are refused.
 */
export function isPublicAddress(ip: string): boolean {
  const address = parseAddress(ip);
  if (!address) return false;
  if (address.kind() === 'ipv4') return address.range() === 'unicast';
  const v6 = address as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().range() === 'unicast';
  return v6.match(GLOBAL_UNICAST_V6) && v6.range() === 'unicast';
}

/** Whether `ip` is a loopback address (127.0.0.0/8, ::1, or 127.x written as IPv4-mapped IPv6). */
function isLoopbackAddress(ip: string): boolean {
  const address = parseAddress(ip);
  if (!address) return false;
  const v6 = address.kind() === 'ipv6' ? (address as ipaddr.IPv6) : undefined;
  return (v6?.isIPv4MappedAddress() ? v6.toIPv4Address() : address).range() === 'loopback';
}

/** The local runtime's exception: a loopback literal or `localhost`. */
function isLocalHost(host: string): boolean {
  return host === 'localhost' || isLoopbackAddress(host);
}

function allowedAddress(ip: string, policy: EndpointPolicy): boolean {
  return isPublicAddress(ip) || (policy.allowLocalUrls && isLoopbackAddress(ip));
}

/**
 * Checks an endpoint URL's syntax without any network access and returns it parsed. Rules: an
 * absolute URL of at most 2048 characters without spaces or control characters; `https:` only;
 * no user name or password; no fragment; a host name with a dot that is not an internal name
 * (`localhost`, `*.localhost`, `*.local`, `*.internal`, `*.home.arpa`); a literal IP must be
 * public ({@link isPublicAddress}). With `policy.allowLocalUrls`, `http:` and `https:` URLs to
 * 127.0.0.0/8, ::1 and `localhost` are allowed too.
 *
 * Whether the host name resolves to public addresses is {@link resolveEndpointAddresses}'s job.
 *
 * @throws EndpointAddressError with reason `invalid_url`, `scheme`, `credentials`, `host` or `private_address`.
 */
export function checkEndpointUrl(url: string, policy: EndpointPolicy): URL {
  if (url.length > ENDPOINT_URL_MAX_LENGTH)
    throw new EndpointAddressError('invalid_url', `The URL must be at most ${ENDPOINT_URL_MAX_LENGTH} characters.`);
  // The URL parser silently drops tabs and newlines and trims spaces; refuse them instead of storing a URL the user did not type.
  if (/[\u0000-\u0020\u007f]/.test(url))
    throw new EndpointAddressError('invalid_url', 'The URL must not contain spaces or control characters.');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new EndpointAddressError('invalid_url', 'The URL must be an absolute URL, such as https://example.com/webhooks.');
  }
  const host = bareHost(parsed.hostname);
  const local = policy.allowLocalUrls && isLocalHost(host);
  const schemeAllowed = parsed.protocol === 'https:' || (parsed.protocol === 'http:' && local);
  if (!schemeAllowed) throw new EndpointAddressError('scheme', 'The URL must use https.');
  if (parsed.username !== '' || parsed.password !== '')
    throw new EndpointAddressError('credentials', 'The URL must not contain a user name or password.');
  // An empty fragment ("…#") serializes in href but leaves `hash` empty.
  if (parsed.href.includes('#')) throw new EndpointAddressError('invalid_url', 'The URL must not contain a fragment (#).');
  if (host === '') throw new EndpointAddressError('host', 'The URL must name a host.');
  if (local) return parsed;
  if (isIP(host) !== 0) {
    if (!isPublicAddress(host)) throw new EndpointAddressError('private_address', 'The URL must point to a public IP address.');
    return parsed;
  }
  if (host === 'localhost' || INTERNAL_NAME_SUFFIXES.some((suffix) => host.endsWith(suffix)) || !host.includes('.')) {
    throw new EndpointAddressError('host', 'The URL must name a public host, not a local or internal name.');
  }
  return parsed;
}

/** One address a host name resolves to, as `dns.lookup` gives it. */
export interface ResolvedAddress {
  address: string;
  family: number;
}

/** `dns.promises.lookup` asking for every address; injected in tests. */
export type AddressLookup = (hostname: string, options: { all: true }) => Promise<readonly LookupAddress[]>;

const systemLookup: AddressLookup = (hostname, options) => dns.lookup(hostname, options);

/**
 * Resolves an endpoint's host to every address it has, and refuses the host if ANY of them is
 * not public (a name with one public and one private address could be answered either way at
 * connect time). With `policy.allowLocalUrls`, loopback addresses are allowed too. A literal IP
 * (with or without IPv6 brackets) is checked without a lookup.
 *
 * Called when an endpoint is created or changed and before each delivery, whose connection then
 * goes to one of the addresses returned here (DNS rebinding defence).
 *
 * @throws EndpointAddressError with reason `unresolvable` (the lookup failed or found nothing) or `private_address`.
 */
export async function resolveEndpointAddresses(
  hostname: string,
  policy: EndpointPolicy,
  lookup: AddressLookup = systemLookup,
): Promise<ResolvedAddress[]> {
  const host = bareHost(hostname);
  const literalFamily = isIP(host);
  let addresses: readonly LookupAddress[];
  if (literalFamily !== 0) {
    addresses = [{ address: host, family: literalFamily }];
  } else {
    try {
      addresses = await lookup(host, { all: true });
    } catch (error) {
      throw new EndpointAddressError('unresolvable', `The host ${host} could not be resolved.`, { cause: error });
    }
  }
  if (addresses.length === 0) throw new EndpointAddressError('unresolvable', `The host ${host} could not be resolved.`);
  if (!addresses.every(({ address }) => allowedAddress(address, policy))) {
    throw new EndpointAddressError('private_address', `The host ${host} must resolve to public IP addresses only.`);
  }
  return addresses.map(({ address, family }) => ({ address, family }));
}
