import { describe, expect, it } from 'vitest';
import { isCardNumber, isValidIban, isValidNir, nirKey, passesLuhn } from './index';

const bigKey = (digits: string) => Number(97n - (BigInt(digits) % 97n));
const withKey = (first13: string, key: number) => `${first13}${String(key).padStart(2, '0')}`;

describe('NIR key', () => {
  it.each(['1850375123456', '2991299001002', '1700199123123', '2450733456789'])('is 97 − (number mod 97) for %s', (number) => {
    expect(nirKey(number)).toBe(bigKey(number));
    expect(isValidNir(withKey(number, bigKey(number)))).toBe(true);
    expect(isValidNir(withKey(number, (bigKey(number) % 97) + 1))).toBe(false);
  });

  it('counts Corsica 2A as 19 and 2B as 18', () => {
    expect(nirKey('185032A123456')).toBe(bigKey('1850319123456'));
    expect(nirKey('185032B123456')).toBe(bigKey('1850318123456'));
    expect(isValidNir(withKey('185032A123456', bigKey('1850319123456')))).toBe(true);
    expect(isValidNir(withKey('185032B123456', bigKey('1850319123456')))).toBe(false);
  });

  it.each([
    ['sex 5', '5850375123456'],
    ['month 13', '1851375123456'],
    ['month 00', '1850075123456'],
    ['department 00', '1850300123456'],
    ['commune 000', '1850375000456'],
  ])('rejects an implausible %s even with the right key', (_label, number) => {
    expect(isValidNir(withKey(number, bigKey(number)))).toBe(false);
  });
});

describe('IBAN mod-97', () => {
  it.each([
    'FR1420041010050500013M02606',
    'DE89370400440532013000',
    'GB82WEST12345698765432',
    'BE68539007547034',
    'NL91ABNA0417164300',
    'CH9300762011623852957',
  ])('accepts the registry example %s', (iban) => expect(isValidIban(iban)).toBe(true));

  it.each([
    ['a wrong check digit', 'FR1520041010050500013M02606'],
    ['a wrong length for the country', 'FR142004101005050001302606'],
    ['an unknown country', 'ZZ1420041010050500013M02606'],
    ['two swapped digits', 'DE89370400440532031000'],
  ])('rejects %s', (_label, iban) => expect(isValidIban(iban)).toBe(false));
});

describe('payment cards', () => {
  it.each([
    '4111111111111111',
    '5555555555554444',
    '2223003122003222',
    '378282246310005',
    '6011111111111117',
    '3530111333300000',
    '30569309025904',
    '6200000000000005',
  ])('accepts the public test number %s', (number) => expect(isCardNumber(number)).toBe(true));

  it.each([
    ['a failed Luhn check', '4111111111111112'],
    ['an ISBN-13', '9782070368228'],
    ['a Luhn-valid number with no issuer prefix', '1234567812345670'],
    ['a Visa prefix with 15 digits', '411111111111116'],
  ])('rejects %s', (_label, number) => expect(isCardNumber(number)).toBe(false));

  it('computes Luhn like ISO/IEC 7812', () => {
    expect(passesLuhn('79927398713')).toBe(true);
    expect(passesLuhn('79927398710')).toBe(false);
  });
});
