import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sameHash } from '../../src/auth/tokens.js';

const hex = fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 64, maxLength: 64 });

describe('sameHash', () => {
  it('is true exactly when the two hashes are the same text', () => {
    fc.assert(fc.property(hex, hex, (a, b) => sameHash(a, b) === (a === b)), { numRuns: 500 });
    // The same text in another string object: equal by content, not by identity.
    fc.assert(fc.property(hex, (a) => sameHash(a, [...a].join(''))), { numRuns: 200 });
  });

  it('tells apart hashes that differ in any one character, first and last included', () => {
    fc.assert(fc.property(hex, fc.nat(63), fc.constantFrom(...'0123456789abcdef'), (a, at, digit) => {
      const b = a.slice(0, at) + digit + a.slice(at + 1);
      return sameHash(a, b) === (digit === a[at]);
    }), { numRuns: 1000 });
    const a = 'a'.repeat(64);
    expect(sameHash(a, `b${a.slice(1)}`)).toBe(false);
    expect(sameHash(a, `${a.slice(0, -1)}b`)).toBe(false);
  });

  it('is false for a prefix, a longer text and the other case: no hex decoding folds them together', () => {
    const a = 'ab'.repeat(32);
    expect(sameHash(a, a.slice(0, -2))).toBe(false);
    expect(sameHash(a, `${a}00`)).toBe(false);
    expect(sameHash(a, a.toUpperCase())).toBe(false);
    expect(sameHash('', '')).toBe(true);
    // Two texts hex decoding would both have read as no bytes at all.
    expect(sameHash('zz', 'yy')).toBe(false);
  });
});
