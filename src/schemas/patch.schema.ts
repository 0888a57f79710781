/**
 * JSON Patch documents (RFC 6902) sent to the PATCH routes of flags,
 * strategies and variants. Paths that could reach an object's prototype are
 * refused here, before any patch library sees them.
 */
import * as v from 'valibot';
import { SHAPE_LIMITS } from '../limits.js';
import type { Operation } from 'fast-json-patch';
import { strictObject } from './common.schema.js';
import { mustBe, oneOf } from './messages.js';

export const PATCH_OPS = ['add', 'remove', 'replace', 'move', 'copy', 'test'] as const;
/**
 * Most operations one PATCH may carry. What a patch may cost is bounded by the size limits of
 * `applyJsonPatch` whatever its length; this bounds the steps and the issues one body can raise.
 */
export const PATCH_MAX = SHAPE_LIMITS.patchOperations;

const HOSTILE_SEGMENTS = new Set(['__proto__', 'constructor', 'prototype']);

/** The unescaped segments of a JSON pointer (`~1` is `/`, `~0` is `~`, in that order). */
export function pointerSegments(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** A JSON pointer: `""` (the whole document) or starting with `/`, with no prototype segment. */
const PointerSchema = v.pipe(
  v.string(mustBe('a string')),
  v.maxLength(1000, 'must be at most 1000 characters'),
  v.check((p) => p === '' || p.startsWith('/'), 'must be a JSON pointer: "" or starting with "/"'),
  v.check(
    (p) => !pointerSegments(p).some((s) => HOSTILE_SEGMENTS.has(s)),
    'must not contain a "__proto__", "constructor" or "prototype" segment',
  ),
);

const needsFrom = (op: string) => op === 'move' || op === 'copy';
const needsValue = (op: string) => op === 'add' || op === 'replace' || op === 'test';

/** One operation; `from` is required by move and copy, `value` by add, replace and test. */
export const PatchOperationSchema = v.pipe(
  strictObject({
    op: v.picklist(PATCH_OPS, oneOf(PATCH_OPS)),
    path: PointerSchema,
    value: v.optional(v.unknown()),
    from: v.optional(PointerSchema),
  }),
  v.forward(
    v.check((o) => !needsFrom(o.op) || o.from !== undefined, (i) => `is required by the "${i.input.op}" operation`),
    ['from'],
  ),
  v.forward(
    v.check((o) => !needsValue(o.op) || o.value !== undefined, (i) => `is required by the "${i.input.op}" operation`),
    ['value'],
  ),
  // Rebuilt per op so the output is fast-json-patch's own `Operation` type and
  // carries no key the op does not use.
  v.transform((o): Operation => {
    switch (o.op) {
      case 'remove': return { op: o.op, path: o.path };
      case 'move':
      case 'copy': return { op: o.op, path: o.path, from: o.from as string };
      default: return { op: o.op, path: o.path, value: o.value };
    }
  }),
);

/**
 * Body of every PATCH route: 0 to 100 operations (an empty patch is a 200 that changes nothing, as in Unleash). The count is checked before any operation is, so a body
 * of a million junk operations costs one issue, not millions.
 *
 * @example v.parse(JsonPatchSchema, [{ op: 'replace', path: '/description', value: 'x' }])
 */
export const JsonPatchSchema = v.pipe(
  v.array(v.unknown(), mustBe('an array of JSON Patch operations')),
  v.maxLength(PATCH_MAX, `must hold at most ${PATCH_MAX} operations`),
  v.array(PatchOperationSchema),
);
export type JsonPatch = v.InferOutput<typeof JsonPatchSchema>;
