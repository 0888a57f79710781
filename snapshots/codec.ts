import { crc32 } from 'node:zlib';

/** Format version of every stored value (log records, snapshot chunks and heads). */
export const RECORD_FORMAT = 1;

/** A stored value whose checksum or format does not hold; names the key so an operator can find it. */
export class CorruptRecordError extends Error {
  constructor(readonly key: string, reason: string) {
    super(`corrupt record at key ${JSON.stringify(key)}: ${reason}`);
    this.name = 'CorruptRecordError';
  }
}

/** The eight hex digits of the CRC-32 of `text`. */
const crcHex = (text: string): string => crc32(text).toString(16).padStart(8, '0');

/**
 * Encodes a value as `<format>:<crc32 hex>:<json>`, so truncation or a flipped byte is detected on read.
 *
 * @example encode({ a: 1 }) // '1:561bacaf:{"a":1}'
 */
export function encode(value: unknown): string {
  return encodeJson(JSON.stringify(value));
}

/** {@link encode} for a value already serialized to JSON text. */
export function encodeJson(json: string): string {
  return `${RECORD_FORMAT}:${crcHex(json)}:${json}`;
}

/** Decodes what {@link encode} wrote; throws {@link CorruptRecordError} naming `key` on any mismatch. */
export function decode<T>(key: string, stored: string): T {
  const first = stored.indexOf(':');
  const second = stored.indexOf(':', first + 1);
  if (first < 0 || second < 0) throw new CorruptRecordError(key, 'no format header');
  const format = Number(stored.slice(0, first));
  if (format !== RECORD_FORMAT) throw new CorruptRecordError(key, `unknown format ${stored.slice(0, first)}`);
  const json = stored.slice(second + 1);
  const crc = crcHex(json);
  if (crc !== stored.slice(first + 1, second)) throw new CorruptRecordError(key, 'checksum mismatch');
  try {
    return JSON.parse(json) as T;
  } catch {
    throw new CorruptRecordError(key, 'unparsable JSON');
  }
}
