/**
 * The stored-value codec (snapshots/codec.ts): `<format>:<crc32 hex>:<json>`, checked on read.
 */
import fc from 'fast-check';
import { crc32 } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { CorruptRecordError, decode, encode, encodeJson } from '../../snapshots/codec.js';

/** The first JSON text `{"n":i}` whose CRC-32 passes `wanted`. */
function jsonWithCrc(wanted: (crc: number) => boolean): string {
  for (let i = 0; ; i += 1) if (wanted(crc32(`{"n":${i}}`))) return `{"n":${i}}`;
}

describe('the checksum header', () => {
  test('is the CRC-32 of the JSON text in eight lowercase hex digits, for any text', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (text) => {
      const json = JSON.stringify(text);
      expect(encodeJson(json)).toBe(`1:${crc32(json).toString(16).padStart(8, '0')}:${json}`);
    }), { numRuns: 2000 });
  });

  test('keeps its leading zeros, and its top bit (CRCs of 2^31 and more)', () => {
    const small = jsonWithCrc((crc) => crc < 0x1000000);
    const high = jsonWithCrc((crc) => crc >= 0xf0000000);
    expect(encodeJson(small)).toMatch(/^1:00[0-9a-f]{6}:/);
    expect(encodeJson(high)).toMatch(/^1:f[0-9a-f]{7}:/);
    expect(encodeJson(small).split(':')[1]).toBe(crc32(small).toString(16).padStart(8, '0'));
    expect(encodeJson(high).split(':')[1]).toBe(crc32(high).toString(16));
  });

  test('as its example says', () => {
    expect(encode({ a: 1 })).toBe('1:561bacaf:{"a":1}');
  });
});

describe('decode', () => {
  test('gives back what was encoded', () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => {
      expect(decode('k', encode(value))).toEqual(JSON.parse(JSON.stringify(value)));
    }), { numRuns: 500 });
  });

  test('refuses a changed byte, a changed checksum, an unknown format and a missing header, naming the key', () => {
    const stored = encode({ flag: 'a', enabled: true });
    const [format, crc, json] = [stored.slice(0, 1), stored.slice(2, 10), stored.slice(11)];
    const cases: [string, RegExp][] = [
      [`${format}:${crc}:${json.replace('true', 'tru3')}`, /checksum mismatch/],
      [`${format}:${crc.replace(/^./, (d) => (d === '0' ? '1' : '0'))}:${json}`, /checksum mismatch/],
      [`2:${crc}:${json}`, /unknown format 2/],
      ['1.no header at all', /no format header/],
    ];
    for (const [value, reason] of cases) {
      expect(() => decode('log/p/1', value)).toThrow(CorruptRecordError);
      expect(() => decode('log/p/1', value)).toThrow(reason);
      expect(() => decode('log/p/1', value)).toThrow(/"log\/p\/1"/);
    }
  });
});
