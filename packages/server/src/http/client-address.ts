import { BlockList, isIP } from 'node:net';

/** The reverse proxies whose `X-Forwarded-For` is believed: addresses and CIDR blocks (AGORA_TRUSTED_PROXIES). */
export class TrustedProxies {
  private readonly list = new BlockList();
  readonly isEmpty: boolean;

  constructor(entries: readonly string[]) {
    for (const entry of entries) {
      const [address, bits] = entry.split('/') as [string, string | undefined];
      const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
      if (bits === undefined) this.list.addAddress(address, family);
      else this.list.addSubnet(address, Number(bits), family);
    }
    this.isEmpty = entries.length === 0;
  }

  has(address: string | undefined): boolean {
    if (this.isEmpty || !address) return false;
    const plain = unmapped(address);
    return this.list.check(plain, isIP(plain) === 6 ? 'ipv6' : 'ipv4');
  }

  /**
   * The client's address: the socket's peer, unless that peer is a trusted proxy; then the last
   * address of `X-Forwarded-For` that is not itself a trusted proxy (the ones before it are
   * whatever the client wrote, and cannot be believed).
   */
  clientOf(peer: string | undefined, forwardedFor: string | undefined): string {
    let client = unmapped(peer ?? 'unknown');
    if (!this.has(client) || !forwardedFor) return client;
    const hops = forwardedFor.split(',').map((hop) => hop.trim());
    for (let index = hops.length - 1; index >= 0; index--) {
      const hop = unmapped(hops[index]!);
      if (isIP(hop) === 0) break;
      client = hop;
      if (!this.has(hop)) break;
    }
    return client;
  }
}

/** `::ffff:1.2.3.4` (an IPv4 peer on a dual-stack socket) as `1.2.3.4`. */
function unmapped(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}
