import { describe, expect, it } from 'vitest';
import { addressGroup, rateLimitAddress } from './address-group';

describe('address groups', () => {
  it('group an IPv4 address by its /24, also when mapped into IPv6', () => {
    expect(addressGroup('203.0.113.77')).toBe('203.0.113.0/24');
    expect(addressGroup('203.0.113.5')).toBe(addressGroup('203.0.113.250'));
    expect(addressGroup('203.0.114.5')).not.toBe(addressGroup('203.0.113.5'));
    expect(addressGroup('::ffff:198.51.100.9')).toBe('198.51.100.0/24');
  });

  it('group an IPv6 address by its /56, whatever its spelling', () => {
    expect(addressGroup('2001:db8:aa:bb01::1')).toBe('2001:db8:aa:bb00::/56');
    expect(addressGroup('2001:0db8:00aa:bbff:ffff:ffff:ffff:ffff')).toBe('2001:db8:aa:bb00::/56');
    expect(addressGroup('2001:db8:aa:bc00::1')).not.toBe(addressGroup('2001:db8:aa:bb00::1'));
    expect(addressGroup('::1')).toBe('0:0:0:0::/56');
    expect(addressGroup('fe80::1%eth0')).toBe('fe80:0:0:0::/56');
  });

  it('leave anything else as it is', () => {
    expect(addressGroup('unknown')).toBe('unknown');
    expect(addressGroup('1:2:3')).toBe('1:2:3');
    expect(addressGroup('300.1.1.1')).toBe('300.1.1.1');
  });
});

describe('the address a rate limit counts', () => {
  it('is an IPv6 address’s /64, whatever its spelling, and an IPv4 address itself', () => {
    expect(rateLimitAddress('2001:db8:aa:bb01::1')).toBe('2001:db8:aa:bb01::/64');
    expect(rateLimitAddress('2001:0db8:00aa:bb01:ffff:ffff:ffff:ffff')).toBe('2001:db8:aa:bb01::/64');
    expect(rateLimitAddress('2001:db8:aa:bb02::1')).not.toBe(rateLimitAddress('2001:db8:aa:bb01::1'));
    expect(rateLimitAddress('203.0.113.77')).toBe('203.0.113.77');
    expect(rateLimitAddress('::ffff:198.51.100.9')).toBe('198.51.100.9');
    expect(rateLimitAddress('unknown')).toBe('unknown');
  });
});
