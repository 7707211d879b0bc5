import { createHash } from 'node:crypto';
import { addressGroup } from '../domain/arena/address-group';

/** The stored form of a visitor's cookie id: its hash, enough to tell one visitor's rows from another's. */
export function hashVisitor(visitorId: string): string {
  return createHash('sha256').update(visitorId).digest('base64url');
}

/** An address is personal data: only its hash is stored, enough to tell rows of one address apart from others. */
export function hashClientAddress(address: string): string {
  return createHash('sha256').update(`agora-client:${address}`).digest('base64url').slice(0, 22);
}

/**
 * The hash of an address's group (IPv4 /24, IPv6 /56: domain/arena/address-group.ts), the address
 * key of the vote integrity rules: one client spread over a range of addresses is still one key.
 */
export function hashClientAddressGroup(address: string): string {
  return hashClientAddress(addressGroup(address));
}
