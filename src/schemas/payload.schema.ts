/**
 * A variant payload (docs/admin-contract.md §2.8), shared by flag variants and strategy variants.
 */
import * as v from 'valibot';
import { SHAPE_LIMITS } from '../limits.js';
import { strictObject } from './common.schema.js';
import { isNumericString } from './formats.js';
import { mustBe, oneOf } from './messages.js';

export const PAYLOAD_TYPES = ['json', 'csv', 'string', 'number'] as const;
/** Longest payload value. */
export const PAYLOAD_VALUE_MAX = SHAPE_LIMITS.payload;

function parsesAsJson(s: string): boolean {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
}

/**
 * `{type, value}`; a `json` value must parse and a `number` value must be a
 * number, so SDKs never receive a payload they cannot decode.
 *
 * @example v.parse(PayloadSchema, { type: 'json', value: '{"a":1}' })
 */
export const PayloadSchema = v.pipe(
  strictObject({
    type: v.picklist(PAYLOAD_TYPES, oneOf(PAYLOAD_TYPES)),
    value: v.pipe(
      v.string(mustBe('a string')),
      v.maxLength(PAYLOAD_VALUE_MAX, `must be at most ${PAYLOAD_VALUE_MAX} characters`),
    ),
  }),
  v.forward(
    v.check((p) => p.type !== 'json' || parsesAsJson(p.value), 'must be valid JSON for a json payload'),
    ['value'],
  ),
  v.forward(
    v.check((p) => p.type !== 'number' || isNumericString(p.value), 'must be a number for a number payload'),
    ['value'],
  ),
);
export type PayloadBody = v.InferOutput<typeof PayloadSchema>;
