import { describe, expect, it } from 'vitest';
import { isIsoDateTime, isNumericString, isStrictSemver, isUrlFriendly } from '../../src/schemas/formats.js';

describe('isUrlFriendly', () => {
  it.each(['a', 'my-flag', 'A_b.c~d', "x!*'()", 'a..b', '...'])(
    'accepts %j',
    (s) => expect(isUrlFriendly(s)).toBe(true),
  );
  it.each(['a b', '../x', 'a/b', '%', '%20', '.', '..', 'ä', 'a?b', 'a#b', 'a&b', '\uD800'])('refuses %j', (s) =>
    expect(isUrlFriendly(s)).toBe(false),
  );
});

describe('isNumericString', () => {
  it.each(['0', '42', '-1', '+3', '1.5', '.5', '5.', '1e3', '-2.5E-2'])('accepts %j', (s) =>
    expect(isNumericString(s)).toBe(true),
  );
  it.each(['', ' ', ' 1', '1 ', '0x10', 'abc', '1,5', 'NaN', 'Infinity', '1e999', '--1', '1e'])('refuses %j', (s) =>
    expect(isNumericString(s)).toBe(false),
  );
});

describe('isStrictSemver', () => {
  it.each(['0.0.0', '1.2.3', '10.20.30', '1.0.0-alpha', '1.0.0-alpha.1', '1.0.0-0.3.7', '1.0.0+build.1', '1.0.0-rc.1+sha.5114f85'])(
    'accepts %j',
    (s) => expect(isStrictSemver(s)).toBe(true),
  );
  it.each(['1', '1.2', 'v1.2.3', '01.2.3', '1.02.3', '1.2.3-01', '1.2.3-', '1.2.3+', ' 1.2.3', '1.2.3.4', 'a.b.c'])(
    'refuses %j',
    (s) => expect(isStrictSemver(s)).toBe(false),
  );
});

describe('isIsoDateTime', () => {
  it.each([
    '2024-05-01',
    '2024-02-29',
    '2024-05-01T12:00Z',
    '2024-05-01T12:00:00Z',
    '2024-05-01T12:00:00.123Z',
    '2024-05-01T23:59:59.123456+02:00',
    '2024-05-01T00:00:00-05:30',
  ])('accepts %j', (s) => expect(isIsoDateTime(s)).toBe(true));
  it.each([
    '',
    'yesterday',
    '2024-5-1',
    '2023-02-29',
    '2024-13-01',
    '2024-04-31',
    '2024-05-01T12:00:00',
    '2024-05-01 12:00:00Z',
    '2024-05-01T24:00:00Z',
    '2024-05-01T12:60:00Z',
    '2024-05-01T12:00:00+25:00',
    '1714560000000',
  ])('refuses %j', (s) => expect(isIsoDateTime(s)).toBe(false));
});
