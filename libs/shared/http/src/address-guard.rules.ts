import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { HostRefusedError } from './http.errors';

/** What a refused address is, as named in the refusal. */
export type RefusedAddressClass = 'loopback' | 'private' | 'link-local' | 'unspecified' | 'cgnat' | 'metadata' | 'multicast' | 'reserved';

/** Resolves a host name to every address it has (dns.lookup with `all: true` by default). */
export type ResolveHost = (hostname: string) => Promise<LookupAddress[]>;

export interface AddressGuardOptions {
  /** allowed_private_hosts: host names or IP literals (lower-case, IPv6 without brackets) crawled whatever they resolve to. */
  allowedPrivateHosts?: readonly string[];
  /** Tests inject a resolver (there is no outside DNS); production uses the system's. */
  resolve?: ResolveHost;
}

// One list per class so a refusal can say which rule it broke. Order matters only for naming:
// metadata (inside link-local / ULA) is looked at first.
const CLASSES: ReadonlyArray<[RefusedAddressClass, ReadonlyArray<[string, number, 'ipv4' | 'ipv6']>]> = [
  ['metadata', [['169.254.169.254', 32, 'ipv4'], ['fd00:ec2::254', 128, 'ipv6']]],
  ['unspecified', [['0.0.0.0', 8, 'ipv4'], ['::', 128, 'ipv6']]],
  ['loopback', [['127.0.0.0', 8, 'ipv4'], ['::1', 128, 'ipv6']]],
  // fec0::/10: site-local, deprecated (RFC 3879) but still routed inside some networks as their own.
  ['private', [['10.0.0.0', 8, 'ipv4'], ['172.16.0.0', 12, 'ipv4'], ['192.168.0.0', 16, 'ipv4'], ['fc00::', 7, 'ipv6'], ['fec0::', 10, 'ipv6']]],
  ['link-local', [['169.254.0.0', 16, 'ipv4'], ['fe80::', 10, 'ipv6']]],
  ['cgnat', [['100.64.0.0', 10, 'ipv4']]],
  ['multicast', [['224.0.0.0', 4, 'ipv4'], ['ff00::', 8, 'ipv6']]],
  // 240/4 "future use" and the limited broadcast address, the documentation and benchmarking nets,
  // IPv6's discard prefix (100::/64), Teredo (2001::/32: it tunnels to an IPv4 address it hides)
  // and ORCHID: nothing a job board lives on, and each can stand for an address on this machine.
  [
    'reserved',
    [
      ['240.0.0.0', 4, 'ipv4'],
      ['192.0.0.0', 24, 'ipv4'],
      ['192.0.2.0', 24, 'ipv4'],
      ['198.18.0.0', 15, 'ipv4'],
      ['198.51.100.0', 24, 'ipv4'],
      ['203.0.113.0', 24, 'ipv4'],
      ['100::', 64, 'ipv6'],
      ['2001::', 32, 'ipv6'],
      ['2001:10::', 28, 'ipv6'],
      ['2001:20::', 28, 'ipv6'],
      ['2001:db8::', 32, 'ipv6'],
      ['3fff::', 20, 'ipv6'],
    ],
  ],
];

const LISTS: ReadonlyArray<[RefusedAddressClass, BlockList]> = CLASSES.map(([name, subnets]) => {
  const list = new BlockList();
  for (const [net, prefix, type] of subnets) list.addSubnet(net, prefix, type);
  return [name, list];
});

/** Host names that are a cloud metadata endpoint whatever they resolve to. */
const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata.google.internal.', 'metadata', 'instance-data', 'instance-data.ec2.internal']);

/**
 * Which forbidden class `address` (an IP literal) falls in, or null for a public address.
 * IPv6 forms that carry an IPv4 address (mapped ::ffff:a.b.c.d, translated ::ffff:0:a.b.c.d, the
 * deprecated compatible ::a.b.c.d, NAT64 64:ff9b::/96 and its local-use 64:ff9b:1::/48, 6to4
 * 2002::/16) are judged by the IPv4 address they reach, so `::ffff:0:7f00:1` is loopback like
 * 127.0.0.1. The same rule serves a source's save (POST/PUT /v1/sources) and every request of a crawl.
 */
export function refusedAddressClass(address: string): RefusedAddressClass | null {
  const ip = address.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  const family = isIP(ip);
  if (family === 0) return 'reserved';
  const type = family === 4 ? 'ipv4' : 'ipv6';
  for (const [name, list] of LISTS) if (list.check(ip, type)) return name;
  if (family === 6) {
    const embedded = embeddedIpv4(ip);
    if (embedded) return refusedAddressClass(embedded);
  }
  return null;
}

/** The IPv4 address an IPv6 literal stands for (mapped, translated, compatible, NAT64, 6to4), if any. */
function embeddedIpv4(ip: string): string | null {
  const words = ipv6Words(ip);
  if (!words) return null;
  const v4 = (hi: number, lo: number): string => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
  const zeros = (from: number, to: number): boolean => words.slice(from, to).every((w) => w === 0);
  if (zeros(0, 5) && (words[5] === 0xffff || words[5] === 0)) return v4(words[6], words[7]);
  // SIIT's IPv4-translated form (RFC 2765): ::ffff:0:a.b.c.d.
  if (zeros(0, 4) && words[4] === 0xffff && words[5] === 0) return v4(words[6], words[7]);
  if (words[0] === 0x64 && words[1] === 0xff9b && zeros(2, 6)) return v4(words[6], words[7]);
  // Local-use NAT64 (RFC 8215): 64:ff9b:1::/48, the IPv4 address in the last 32 bits.
  if (words[0] === 0x64 && words[1] === 0xff9b && words[2] === 1) return v4(words[6], words[7]);
  if (words[0] === 0x2002) return v4(words[1], words[2]);
  return null;
}

/** The eight 16-bit words of an IPv6 literal (`::` expanded, a trailing dotted quad folded in). */
function ipv6Words(ip: string): number[] | null {
  let text = ip.toLowerCase();
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number);
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const parse = (part: string): number[] => (part === '' ? [] : part.split(':').map((w) => parseInt(w, 16)));
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  const fill = 8 - left.length - right.length;
  if (fill < 0 || (tail === undefined && fill !== 0)) return null;
  const words = [...left, ...new Array<number>(fill).fill(0), ...right];
  return words.every((w) => Number.isInteger(w) && w >= 0 && w <= 0xffff) ? words : null;
}

const systemResolve: ResolveHost = (hostname) =>
  new Promise((resolve, reject) => dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))));

/**
 * The crawler's address rule (#15): a URL whose host is, or resolves to, a private, loopback,
 * link-local, unspecified, CGNAT or metadata address is refused unless the host is listed in
 * allowed_private_hosts — otherwise a stranger's page (a redirect, a sub-resource, a source's
 * base_url) could make this machine fetch from the user's own network or a cloud metadata endpoint.
 * ANY bad address refuses the host: a name answering both a public and a private address could
 * otherwise be connected to the private one. `admit` returns the addresses it checked so the
 * caller connects to exactly those (see pinnedLookup): resolving again at connect time would let
 * a DNS answer that changed in between (rebinding) slip through.
 */
export class AddressGuard {
  private readonly allowed: ReadonlySet<string>;
  private readonly resolve: ResolveHost;
  /**
   * Lookups in flight, by host: requests to one host that arrive together share one lookup, so they
   * leave the guard in the order they came (separate lookups finish in any order, which reordered a
   * host's queue behind its gate) and a burst asks the resolver once. Only in-flight lookups are
   * shared; the next request after one settles resolves afresh.
   */
  private readonly lookups = new Map<string, Promise<LookupAddress[]>>();

  constructor(options: AddressGuardOptions = {}) {
    this.allowed = new Set((options.allowedPrivateHosts ?? []).map(normalizeHost));
    this.resolve = options.resolve ?? systemResolve;
  }

  /** Whether allowed_private_hosts lists `host` (exact name, or the literal IP). */
  isAllowedHost(host: string): boolean {
    return this.allowed.has(normalizeHost(host));
  }

  /**
   * Resolves `url`'s host and checks every address; throws HostRefusedError for a refused one.
   * Resolver failures (ENOTFOUND, ...) are thrown as they are: the caller reports them as the
   * network failure they are. Returns the addresses to connect to.
   */
  async admit(url: URL | string): Promise<LookupAddress[]> {
    const target = typeof url === 'string' ? new URL(url) : url;
    const host = normalizeHost(target.hostname);
    const allowed = this.allowed.has(host);
    const literal = isIP(host);
    if (literal !== 0) {
      if (!allowed) this.refuseIfPrivate(target.href, host, host);
      return [{ address: host, family: literal }];
    }
    if (!allowed && METADATA_NAMES.has(host)) throw new HostRefusedError(target.href, host, host, 'metadata');
    const addresses = await this.lookup(host);
    if (!allowed) for (const { address } of addresses) this.refuseIfPrivate(target.href, host, address);
    return addresses;
  }

  private lookup(host: string): Promise<LookupAddress[]> {
    let pending = this.lookups.get(host);
    if (!pending) {
      pending = this.resolve(host).finally(() => this.lookups.delete(host));
      this.lookups.set(host, pending);
    }
    return pending;
  }

  /** Like `admit`, for a caller that only needs the verdict (a browser request it cannot pin). */
  async check(url: URL | string): Promise<void> {
    await this.admit(url);
  }

  private refuseIfPrivate(url: string, host: string, address: string): void {
    const kind = refusedAddressClass(address);
    if (kind) throw new HostRefusedError(url, host, address, kind);
  }
}

/**
 * A `lookup` for http.request / net.connect that answers with addresses already checked, so the
 * connection goes to what the guard admitted and nothing the resolver says later.
 */
export function pinnedLookup(addresses: readonly LookupAddress[]) {
  return (
    hostname: string,
    options: { family?: number | string; all?: boolean },
    callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ): void => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : Number(options.family ?? 0);
    const usable = family === 4 || family === 6 ? addresses.filter((a) => a.family === family) : [...addresses];
    if (usable.length === 0) {
      const err: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
      err.code = 'ENOTFOUND';
      callback(err, '');
      return;
    }
    if (options.all) callback(null, usable);
    else callback(null, usable[0].address, usable[0].family);
  };
}

function normalizeHost(host: string): string {
  return host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
}
