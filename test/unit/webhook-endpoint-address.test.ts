import type { LookupAddress } from 'node:dns';
import {
  checkEndpointUrl,
  EndpointAddressError,
  isPublicAddress,
  resolveEndpointAddresses,
  type AddressLookup,
  type EndpointAddressRefusal,
} from '../../shared/webhooks/endpoint-address';

const PUBLIC_ONLY = { allowLocalUrls: false };
const LOCAL = { allowLocalUrls: true };

/** Runs `action` and returns the EndpointAddressError's reason, or 'accepted' when nothing was thrown. */
async function outcome(action: () => unknown): Promise<EndpointAddressRefusal | 'accepted'> {
  try {
    await action();
    return 'accepted';
  } catch (error) {
    if (error instanceof EndpointAddressError) return error.reason;
    throw error;
  }
}

/** A lookup that answers every name with `addresses` and records the names asked. */
function fixedLookup(addresses: LookupAddress[]): AddressLookup & { asked: string[] } {
  const asked: string[] = [];
  return Object.assign(
    async (hostname: string) => {
      asked.push(hostname);
      return addresses;
    },
    { asked },
  );
}

describe('isPublicAddress', () => {
  it.each([
    ['8.8.8.8', 'public IPv4 (Google DNS)'],
    ['1.1.1.1', 'public IPv4 (Cloudflare)'],
    ['52.94.236.248', 'public IPv4 (AWS)'],
    ['172.15.255.255', 'just below 172.16/12'],
    ['172.32.0.1', 'just above 172.16/12'],
    ['100.63.255.255', 'just below 100.64/10'],
    ['100.128.0.1', 'just above 100.64/10'],
    ['169.253.255.255', 'just below 169.254/16'],
    ['198.20.0.1', 'just above 198.18/15'],
    ['223.255.255.254', 'just below 224/4'],
    ['2606:4700:4700::1111', 'public IPv6 (Cloudflare)'],
    ['2a00:1450:4001:82b::200e', 'public IPv6 (Google)'],
    ['::ffff:8.8.8.8', 'IPv4-mapped public IPv4'],
  ])('accepts %s (%s)', (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });

  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback /8'],
    ['10.0.0.1', 'private 10/8'],
    ['10.255.255.255', 'private 10/8, last'],
    ['172.16.0.1', 'private 172.16/12, first'],
    ['172.31.255.254', 'private 172.16/12, last'],
    ['192.168.1.1', 'private 192.168/16'],
    ['169.254.169.254', 'link-local, instance metadata service'],
    ['169.254.0.1', 'link-local'],
    ['100.64.0.1', 'carrier-grade NAT, first'],
    ['100.127.255.254', 'carrier-grade NAT, last'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', '0.0.0.0/8 ("this network")'],
    ['255.255.255.255', 'broadcast'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast (SSDP)'],
    ['240.0.0.1', 'reserved 240/4'],
    ['192.0.0.1', 'IETF protocol assignments 192.0.0.0/24'],
    ['192.0.2.1', 'documentation TEST-NET-1'],
    ['198.51.100.7', 'documentation TEST-NET-2'],
    ['203.0.113.9', 'documentation TEST-NET-3'],
    ['198.18.0.1', 'benchmarking 198.18/15'],
    ['198.19.255.254', 'benchmarking 198.18/15, last'],
    ['::1', 'IPv6 loopback'],
    ['::', 'IPv6 unspecified'],
    ['fe80::1', 'IPv6 link-local'],
    ['febf:ffff::1', 'IPv6 link-local, end of fe80::/10'],
    ['fc00::1', 'IPv6 unique local fc00::/7'],
    ['fd12:3456:789a::1', 'IPv6 unique local (fd)'],
    ['fd00:ec2::254', 'the EC2 instance metadata service over IPv6'],
    ['fec0::1', 'IPv6 deprecated site-local'],
    ['ff02::1', 'IPv6 multicast'],
    ['2001:db8::1', 'IPv6 documentation'],
    ['3fff::1', 'IPv6 documentation 3fff::/20'],
    ['2001:2::1', 'IPv6 benchmarking'],
    ['100::1', 'IPv6 discard-only'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:169.254.169.254', 'IPv4-mapped metadata service'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['::127.0.0.1', 'IPv4-compatible (deprecated) loopback'],
    ['::8.8.8.8', 'IPv4-compatible (deprecated), even public'],
    ['::ffff:0:7f00:1', 'IPv4-translated (RFC 6145) loopback'],
    ['64:ff9b::7f00:1', 'NAT64 embedding loopback'],
    ['64:ff9b::808:808', 'NAT64, even embedding a public address'],
    ['2002:7f00:1::1', '6to4 embedding loopback'],
    ['2002:808:808::1', '6to4, even embedding a public address'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
    ['fe80::1%eth0', 'a zone id'],
    ['0177.0.0.1', 'octal IPv4 (not a plain textual address)'],
    ['2130706433', 'IPv4 as an integer (not a plain textual address)'],
    ['localhost', 'a name, not an address'],
    ['', 'empty'],
  ])('refuses %s (%s)', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });
});

describe('checkEndpointUrl', () => {
  it.each([
    'https://example.com/webhooks',
    'https://hooks.example.com:8443/v1/receive?source=voice&token=abc',
    'https://example.com./path',
    'https://пример.рф/hook',
    'https://8.8.8.8/hook',
    'https://[2606:4700:4700::1111]/hook',
  ])('accepts %s', (url) => {
    expect(checkEndpointUrl(url, PUBLIC_ONLY)).toBeInstanceOf(URL);
  });

  it('returns the URL parsed (host normalised by the WHATWG parser)', () => {
    expect(checkEndpointUrl('https://Example.COM/Hook?a=1', PUBLIC_ONLY).href).toBe('https://example.com/Hook?a=1');
  });

  it.each<[string, EndpointAddressRefusal]>([
    ['example.com/webhooks', 'invalid_url'],
    ['/webhooks', 'invalid_url'],
    ['not a url', 'invalid_url'],
    ['', 'invalid_url'],
    [' https://example.com/', 'invalid_url'],
    ['https://exa\nmple.com/', 'invalid_url'],
    ['https://example.com/a\tb', 'invalid_url'],
    [`https://example.com/${'a'.repeat(2048)}`, 'invalid_url'],
    ['https://example.com/hook#section', 'invalid_url'],
    ['https://example.com/hook#', 'invalid_url'],
    ['http://example.com/hook', 'scheme'],
    ['ftp://example.com/hook', 'scheme'],
    ['ws://example.com/hook', 'scheme'],
    ['file:///etc/passwd', 'scheme'],
    ['javascript:alert(1)', 'scheme'],
    ['https://user:pass@example.com/', 'credentials'],
    ['https://user@example.com/', 'credentials'],
    ['https://localhost/hook', 'host'],
    ['https://localhost./hook', 'host'],
    ['https://api.localhost/hook', 'host'],
    ['https://printer.local/hook', 'host'],
    ['https://metadata.google.internal/computeMetadata/v1/', 'host'],
    ['https://ip-10-0-0-1.eu-west-1.compute.internal/', 'host'],
    ['https://router.home.arpa/', 'host'],
    ['https://intranet/hook', 'host'],
    ['https://127.0.0.1/hook', 'private_address'],
    ['https://127.1/hook', 'private_address'],
    ['https://0x7f000001/hook', 'private_address'],
    ['https://2130706433/hook', 'private_address'],
    ['https://169.254.169.254/latest/meta-data/', 'private_address'],
    ['https://10.0.0.1/hook', 'private_address'],
    ['https://0.0.0.0/hook', 'private_address'],
    ['https://[::1]/hook', 'private_address'],
    ['https://[::ffff:127.0.0.1]/hook', 'private_address'],
    ['https://[::ffff:a9fe:a9fe]/hook', 'private_address'],
    ['https://[fd00:ec2::254]/hook', 'private_address'],
    ['https://[fe80::1]/hook', 'private_address'],
  ])('refuses %j (%s)', async (url, reason) => {
    expect(await outcome(() => checkEndpointUrl(url, PUBLIC_ONLY))).toBe(reason);
  });

  it('accepts a URL of exactly 2048 characters', () => {
    const url = 'https://example.com/';
    expect(checkEndpointUrl(url + 'a'.repeat(2048 - url.length), PUBLIC_ONLY)).toBeInstanceOf(URL);
  });

  it('explains the refusal in a sentence', () => {
    expect(() => checkEndpointUrl('http://example.com/', PUBLIC_ONLY)).toThrow('The URL must use https.');
    expect(() => checkEndpointUrl('https://10.0.0.1/', PUBLIC_ONLY)).toThrow(expect.objectContaining({ name: 'EndpointAddressError' }));
  });

  describe('local policy', () => {
    it.each([
      'http://127.0.0.1:4010/webhooks',
      'http://127.0.0.2:4010/',
      'http://localhost:4010/hook',
      'http://localhost/hook',
      'http://[::1]:4010/hook',
      'https://localhost:8443/hook',
      'https://127.0.0.1/hook',
      'https://example.com/hook',
    ])('accepts %s', (url) => {
      expect(checkEndpointUrl(url, LOCAL)).toBeInstanceOf(URL);
    });

    it.each<[string, EndpointAddressRefusal]>([
      ['http://10.0.0.1/hook', 'scheme'],
      ['https://10.0.0.1/hook', 'private_address'],
      ['http://example.com/hook', 'scheme'],
      ['http://169.254.169.254/latest/meta-data/', 'scheme'],
      ['https://169.254.169.254/latest/meta-data/', 'private_address'],
      ['http://api.localhost/hook', 'scheme'],
      ['https://printer.local/hook', 'host'],
      ['http://user:pass@127.0.0.1/hook', 'credentials'],
      ['ftp://127.0.0.1/hook', 'scheme'],
    ])('still refuses %s (%s)', async (url, reason) => {
      expect(await outcome(() => checkEndpointUrl(url, LOCAL))).toBe(reason);
    });
  });
});

describe('resolveEndpointAddresses', () => {
  it('returns every address of a host that resolves to public addresses only', async () => {
    const lookup = fixedLookup([
      { address: '93.184.215.14', family: 4 },
      { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
    ]);
    await expect(resolveEndpointAddresses('example.com', PUBLIC_ONLY, lookup)).resolves.toEqual([
      { address: '93.184.215.14', family: 4 },
      { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
    ]);
    expect(lookup.asked).toEqual(['example.com']);
  });

  it('refuses a host with one public and one private address (DNS rebinding)', async () => {
    const lookup = fixedLookup([
      { address: '93.184.215.14', family: 4 },
      { address: '169.254.169.254', family: 4 },
    ]);
    expect(await outcome(() => resolveEndpointAddresses('rebind.example.com', PUBLIC_ONLY, lookup))).toBe('private_address');
  });

  it.each(['127.0.0.1', '10.1.2.3', '::1', 'fd00::1', '::ffff:192.168.0.1', '100.100.100.200'])(
    'refuses a host resolving to %s',
    async (address) => {
      const lookup = fixedLookup([{ address, family: address.includes(':') ? 6 : 4 }]);
      expect(await outcome(() => resolveEndpointAddresses('evil.example.com', PUBLIC_ONLY, lookup))).toBe('private_address');
    },
  );

  it('refuses a host that does not resolve, or resolves to nothing', async () => {
    const notFound: AddressLookup = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.example'), { code: 'ENOTFOUND' });
    };
    const error = await resolveEndpointAddresses('nowhere.example', PUBLIC_ONLY, notFound).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(EndpointAddressError);
    expect(error).toMatchObject({ reason: 'unresolvable', cause: { code: 'ENOTFOUND' } });
    expect(await outcome(() => resolveEndpointAddresses('empty.example', PUBLIC_ONLY, fixedLookup([])))).toBe('unresolvable');
  });

  it('checks a literal address without a lookup, with or without IPv6 brackets', async () => {
    const lookup = fixedLookup([{ address: '8.8.8.8', family: 4 }]);
    await expect(resolveEndpointAddresses('8.8.4.4', PUBLIC_ONLY, lookup)).resolves.toEqual([{ address: '8.8.4.4', family: 4 }]);
    await expect(resolveEndpointAddresses('[2606:4700:4700::1111]', PUBLIC_ONLY, lookup)).resolves.toEqual([
      { address: '2606:4700:4700::1111', family: 6 },
    ]);
    expect(await outcome(() => resolveEndpointAddresses('[::1]', PUBLIC_ONLY, lookup))).toBe('private_address');
    expect(await outcome(() => resolveEndpointAddresses('10.0.0.1', PUBLIC_ONLY, lookup))).toBe('private_address');
    expect(lookup.asked).toEqual([]);
  });

  describe('local policy', () => {
    it('allows loopback addresses, literal or resolved from localhost', async () => {
      const lookup = fixedLookup([
        { address: '::1', family: 6 },
        { address: '127.0.0.1', family: 4 },
      ]);
      await expect(resolveEndpointAddresses('localhost', LOCAL, lookup)).resolves.toHaveLength(2);
      await expect(resolveEndpointAddresses('127.0.0.1', LOCAL, lookup)).resolves.toEqual([{ address: '127.0.0.1', family: 4 }]);
      await expect(resolveEndpointAddresses('[::1]', LOCAL, lookup)).resolves.toEqual([{ address: '::1', family: 6 }]);
    });

    it('still refuses private, link-local and CGNAT addresses', async () => {
      for (const address of ['10.0.0.1', '192.168.1.10', '169.254.169.254', '100.64.0.1', 'fd00::1']) {
        const lookup = fixedLookup([{ address, family: address.includes(':') ? 6 : 4 }]);
        expect(await outcome(() => resolveEndpointAddresses('internal.example.com', LOCAL, lookup))).toBe('private_address');
        expect(await outcome(() => resolveEndpointAddresses(address, LOCAL, lookup))).toBe('private_address');
      }
    });
  });

  it('uses the system resolver by default (localhost resolves to loopback, refused by the public policy)', async () => {
    expect(await outcome(() => resolveEndpointAddresses('localhost', PUBLIC_ONLY))).toBe('private_address');
    await expect(resolveEndpointAddresses('localhost', LOCAL)).resolves.toContainEqual(
      expect.objectContaining({ family: expect.any(Number) }),
    );
  });
});
