import { describe, expect, it } from 'vitest';
import { TrustedProxies } from './client-address';

describe('the client address behind trusted proxies', () => {
  const proxies = new TrustedProxies(['10.0.0.0/8', '192.168.1.5', 'fd00::/8']);

  it('is the peer when no proxy is trusted or the peer is not one', () => {
    expect(new TrustedProxies([]).clientOf('10.0.0.2', '6.6.6.6')).toBe('10.0.0.2');
    expect(proxies.clientOf('203.0.113.7', '6.6.6.6')).toBe('203.0.113.7');
    expect(proxies.clientOf('::ffff:203.0.113.7', undefined)).toBe('203.0.113.7');
  });

  it('is the last forwarded address that is not a trusted proxy; what the client wrote before it is ignored', () => {
    expect(proxies.clientOf('10.1.2.3', '203.0.113.7')).toBe('203.0.113.7');
    expect(proxies.clientOf('10.1.2.3', '6.6.6.6, 203.0.113.7, 192.168.1.5')).toBe('203.0.113.7');
    expect(proxies.clientOf('::ffff:192.168.1.5', '198.51.100.1')).toBe('198.51.100.1');
    expect(proxies.clientOf('fd00::1', '2001:db8::9')).toBe('2001:db8::9');
    // Garbage in the header stops the walk at the last good hop.
    expect(proxies.clientOf('10.1.2.3', 'not-an-ip, 10.9.9.9')).toBe('10.9.9.9');
    expect(proxies.clientOf('10.1.2.3', '')).toBe('10.1.2.3');
  });

  it('knows its proxies, IPv4 and IPv6', () => {
    expect(proxies.has('10.255.0.1')).toBe(true);
    expect(proxies.has('11.0.0.1')).toBe(false);
    expect(proxies.has('fd12::3')).toBe(true);
    expect(proxies.has(undefined)).toBe(false);
  });
});
