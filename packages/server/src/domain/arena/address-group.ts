/**
 * The group of a client address, the key under which the integrity rules count an address
 * (docs/arena.md#vote-integrity): an IPv4 address by its /24, an IPv6 address by its /56. One
 * client commonly holds a whole IPv6 /64 (often a /56 from its provider) and can rent neighbouring
 * IPv4 addresses, so counting single addresses would let one client spread its votes over a range.
 * Pure: parsing only, no lookup.
 */

/** Prefix lengths of a group. */
export const ADDRESS_GROUP_BITS = { ipv4: 24, ipv6: 56 } as const;

/** `203.0.113.77` → `203.0.113.0/24`, `2001:db8:aa:bb01::1` → `2001:db8:aa:bb00::/56`; anything else as it is. */
export function addressGroup(address: string): string {
  const plain = address.startsWith('::ffff:') && isIpv4(address.slice(7)) ? address.slice(7) : address;
  if (isIpv4(plain)) return `${plain.split('.').slice(0, 3).join('.')}.0/${ADDRESS_GROUP_BITS.ipv4}`;
  const groups = ipv6Groups(plain);
  if (!groups) return address;
  // 56 bits: three 16-bit groups and the high byte of the fourth.
  const kept = [groups[0]!, groups[1]!, groups[2]!, groups[3]! & 0xff00].map((group) => group.toString(16));
  return `${kept.join(':')}::/${ADDRESS_GROUP_BITS.ipv6}`;
}

/**
 * The key under which the rate limits count an address (docs/operations.md#rate-limits): an IPv6
 * address by its /64, the least a subscriber holds, so that walking its range escapes no limit;
 * an IPv4 address as it is (its /24 may hold unrelated networks, and one address is already a
 * whole school behind its router). `2001:db8:aa:bb01::1` → `2001:db8:aa:bb01::/64`.
 */
export function rateLimitAddress(address: string): string {
  const plain = address.startsWith('::ffff:') && isIpv4(address.slice(7)) ? address.slice(7) : address;
  const groups = isIpv4(plain) ? null : ipv6Groups(plain);
  return groups
    ? `${groups
        .slice(0, 4)
        .map((group) => group.toString(16))
        .join(':')}::/64`
    : plain;
}

function isIpv4(text: string): boolean {
  const parts = text.split('.');
  return parts.length === 4 && parts.every((part) => /^\d{1,3}$/.test(part) && Number(part) <= 255);
}

/** The eight 16-bit groups of an IPv6 address (a zone and an embedded IPv4 tail allowed), or null. */
function ipv6Groups(text: string): number[] | null {
  const address = text.split('%')[0]!.toLowerCase();
  if (!address.includes(':')) return null;
  const halves = address.split('::');
  if (halves.length > 2) return null;
  const parse = (half: string): number[] | null => {
    if (half === '') return [];
    const groups: number[] = [];
    for (const part of half.split(':')) {
      if (isIpv4(part)) {
        const [a, b, c, d] = part.split('.').map(Number) as [number, number, number, number];
        groups.push((a << 8) | b, (c << 8) | d);
      } else if (/^[0-9a-f]{1,4}$/.test(part)) groups.push(parseInt(part, 16));
      else return null;
    }
    return groups;
  };
  const head = parse(halves[0]!);
  const tail = halves.length === 2 ? parse(halves[1]!) : [];
  if (!head || !tail) return null;
  if (halves.length === 1) return head.length === 8 ? head : null;
  const missing = 8 - head.length - tail.length;
  return missing >= 1 ? [...head, ...new Array<number>(missing).fill(0), ...tail] : null;
}
