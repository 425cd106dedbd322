import { describe, expect, it } from 'vitest';
import { SHOP_TIMEOUT_MS } from '@portal/contract';
import { testConfig } from '../../test/api.ts';
import { isReachableAddress } from './peppershop-address.ts';

describe('shop address rule', () => {
  it('reaches public unicast addresses only', () => {
    for (const address of ['8.8.8.8', '185.199.108.153', '2606:4700:4700::1111']) {
      expect(isReachableAddress(address, false), address).toBe(true);
    }
    for (const address of [
      '127.0.0.1', // loopback
      '127.8.9.10',
      '::1',
      '10.0.0.1', // private
      '172.16.5.4',
      '192.168.1.1',
      '169.254.169.254', // link-local: cloud metadata
      'fe80::1',
      'fd00:ec2::254', // unique-local: cloud metadata over IPv6
      '100.100.100.200', // carrier-grade NAT: a cloud's metadata service
      '0.0.0.0',
      '::',
      '224.0.0.1',
      '255.255.255.255',
      '::ffff:127.0.0.1', // IPv4 written as IPv6
      '::ffff:10.0.0.1',
      '64:ff9b::a00:1', // NAT64 of 10.0.0.1
      '2002:7f00:1::', // 6to4 of 127.0.0.1
      'not-an-address',
    ]) {
      expect(isReachableAddress(address, false), address).toBe(false);
    }
  });

  it('allows loopback, and nothing else internal, only when local shops are allowed (demo mode)', () => {
    expect(isReachableAddress('127.0.0.1', true)).toBe(true);
    expect(isReachableAddress('::1', true)).toBe(true);
    expect(isReachableAddress('10.0.0.1', true)).toBe(false);
    expect(isReachableAddress('169.254.169.254', true)).toBe(false);
  });
});

describe('shop configuration', () => {
  it('gives a shop 5 seconds to answer unless configured otherwise, and allows local shops only in demo mode', () => {
    expect(SHOP_TIMEOUT_MS).toBe(5000);
    expect(testConfig().shop).toEqual({ timeoutMs: 5000, allowLocalShops: false });
    expect(testConfig({ SHOP_TIMEOUT_MS: '300', DEMO_DATA: 'force' }).shop).toEqual({
      timeoutMs: 300,
      allowLocalShops: true,
    });
    expect(() => testConfig({ SHOP_TIMEOUT_MS: 'soon' })).toThrow(/SHOP_TIMEOUT_MS/);
  });
});
