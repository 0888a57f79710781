import jsonpatch, { type Operation } from 'fast-json-patch';
import { SHAPE_LIMITS } from '../limits.js';
import { jsonStringBytes, measureJson } from '../schemas/json-size.js';
import { pointerSegments } from '../schemas/patch.schema.js';
import { fail } from './errors.js';
import { failed, ok, type Result } from './result.js';

/**
 * Largest document, in bytes of JSON, an operation may grow a patched document to: the default body limit
 * (`BODY_LIMIT`, src/config.ts), since a document no request could send whole is one no patch needs to
 * build. Callers pass the configured limit.
 */
export const PATCH_RESULT_LIMIT = SHAPE_LIMITS.bodyBytes;

/**
 * Deepest nesting an operation may grow a patched document to: the depth limit of request bodies
 * (`SHAPE_LIMITS.bodyDepth`, src/limits.ts). No resource is nested more than a few levels; the bound keeps the
 * recursive clones and comparisons of fast-json-patch far from the stack limit.
 */
export const PATCH_DEPTH_LIMIT = SHAPE_LIMITS.bodyDepth;

/** Running bounds while a patch is applied: JSON bytes and depth of the document (upper bounds), bytes copied so far. */
interface Estimate {
  bytes: number;
  depth: number;
  copied: number;
}

/** Where a JSON pointer leads in a document: the value there, if the path exists as own data. */
function lookup(document: unknown, segments: string[]): { found: true; value: unknown } | { found: false } {
  let value = document;
  for (const segment of segments) {
    if (Array.isArray(value)) {
      if (!/^\d+$/.test(segment) || Number(segment) >= value.length) return { found: false };
      value = value[Number(segment)];
    } else if (value !== null && typeof value === 'object' && Object.hasOwn(value, segment)) {
      value = (value as Record<string, unknown>)[segment];
    } else return { found: false };
  }
  return value === undefined ? { found: false } : { found: true, value };
}

/** Bytes a new member at `key` costs beyond its value: the key, a colon and a comma (an upper bound for an array element). */
const memberBytes = (key: string): number => jsonStringBytes(key) + 2;

/** Size of a value already in the document, which the document's estimate bounds. */
const bytesOf = (value: unknown, within: number): number => measureJson(value, within)?.bytes ?? 0;

/** An operation priced: the estimate after it and the operation to run, or why it is refused. */
type Priced = Result<{ next: Estimate; run: Operation }>;

const refused = (index: number, problem: string): Priced =>
  failed(fail('ValidationError', `Invalid JSON Patch: operation ${index} ${problem}`));
const tooBig = (index: number, op: string, limit: number) =>
  refused(index, `("${op}") would make the document larger than ${limit} bytes, the limit of a patched document`);
const tooMuch = (index: number, limit: number) =>
  refused(index, `("copy") would make the patch copy more than ${limit} bytes in all, the limit of a patched document`);
const tooDeep = (index: number, op: string) =>
  refused(index, `("${op}") would nest the document more than ${PATCH_DEPTH_LIMIT} levels deep`);
const missingFrom = (index: number, op: string, from: string) =>
  refused(index, `("${op}") has a "from" that does not exist: ${JSON.stringify(from.slice(0, 100))}`);

/**
 * Prices one operation before it runs, from the document as it stands: the estimate after it and the
 * operation to run. Limits, each refused before the work it would cost:
 * - no operation grows the document past `limit` bytes of JSON or {@link PATCH_DEPTH_LIMIT} levels (a stored
 *   document already past one may still shrink);
 * - a patch copies at most `limit` bytes in all, so measuring and cloning copies costs at most the limit
 *   per patch however many operations it has (its own values came in a body no larger than the limit).
 *   Without it, copying a large value and removing it again, in turn, would do a limit's worth of work
 *   per operation while the document stays within the limit.
 * A copied value is measured only up to what the limits leave. `copy` runs as an `add` of a clone, and
 * `add` and `replace` insert a clone of their value, so the caller's operations are never changed.
 */
function price(document: unknown, estimate: Estimate, operation: Operation, index: number, limit: number): Priced {
  const { bytes, depth, copied } = estimate;
  const path = pointerSegments(operation.path);
  const maxBytes = Math.max(limit, bytes);
  const maxDepth = Math.max(PATCH_DEPTH_LIMIT, depth);
  const unchanged = (next: Estimate = estimate): Priced => ok({ next, run: operation });
  switch (operation.op) {
    case 'add':
    case 'replace':
    case 'copy':
      break;
    case 'remove': {
      if (path.length === 0) return unchanged({ ...estimate, bytes: 4, depth: 0 }); // the document becomes null
      const target = lookup(document, path);
      return unchanged({ ...estimate, bytes: target.found ? bytes - bytesOf(target.value, bytes) : bytes });
    }
    case 'move': {
      const from = pointerSegments(operation.from);
      if (!lookup(document, from).found) return missingFrom(index, operation.op, operation.from);
      if (from.length < path.length && from.every((segment, i) => segment === path[i])) {
        return refused(index, '("move") would move a value into itself');
      }
      if (path.length === 0) return unchanged(); // the moved value becomes the whole document, which shrinks
      // A moved value keeps its size; only its key is new. What it may overwrite is not subtracted.
      const next = { bytes: bytes + memberBytes(path.at(-1)!), depth: Math.max(depth, depth - from.length + path.length), copied };
      if (next.bytes > maxBytes) return tooBig(index, operation.op, limit);
      if (next.depth > maxDepth) return tooDeep(index, operation.op);
      return unchanged(next);
    }
    case 'test':
      return unchanged();
    default: // the schema admits no other op; `_get` would write into the caller's operation
      return refused(index, `("${String(operation.op).slice(0, 20)}") is not an RFC 6902 operation`);
  }
  let value: unknown;
  if (operation.op === 'copy') {
    const source = lookup(document, pointerSegments(operation.from));
    if (!source.found) return missingFrom(index, operation.op, operation.from);
    value = source.value;
  } else value = operation.value;
  // add over an object member, and replace, drop the value that was there; add into an array inserts.
  const target = path.length === 0 ? { found: false as const } : lookup(document, path);
  const parent = lookup(document, path.slice(0, -1));
  const overwrites = target.found && (operation.op === 'replace' || !(parent.found && Array.isArray(parent.value)));
  const removed = path.length === 0 ? bytes : overwrites ? bytesOf((target as { value: unknown }).value, bytes) : 0;
  const member = path.length === 0 || overwrites ? 0 : memberBytes(path.at(-1)!);
  const room = maxBytes - (bytes - removed + member);
  const allowance = operation.op === 'copy' ? limit - copied : Infinity;
  const measured = measureJson(value, Math.min(room, allowance));
  if (measured === undefined) return room <= allowance ? tooBig(index, operation.op, limit) : tooMuch(index, limit);
  const next = {
    bytes: bytes - removed + member + measured.bytes,
    depth: path.length === 0 ? measured.depth : Math.max(depth, path.length + measured.depth),
    copied: operation.op === 'copy' ? copied + measured.bytes : copied,
  };
  if (next.depth > maxDepth) return tooDeep(index, operation.op);
  // A missing value is left for fast-json-patch's validation to refuse (deepClone would make it null).
  const copy = value === undefined ? value : jsonpatch.deepClone(value);
  return ok({ next, run: { op: operation.op === 'replace' ? 'replace' : 'add', path: operation.path, value: copy } });
}

/**
 * Runs one priced operation on `document` (changed in place) and gives the document after it. A move is a
 * remove and an add, as RFC 6902 defines it. fast-json-patch's own move clones whatever the target held,
 * and validating the add would walk the whole moved value looking for `undefined`, which a value taken
 * from the document cannot hold; so the add's target is checked here instead, and the move costs the
 * length of its paths.
 */
function run(document: unknown, operation: Operation, index: number): unknown {
  if (operation.op !== 'move') return jsonpatch.applyOperation(document, operation, true, true, true, index).newDocument;
  const taken = jsonpatch.applyOperation(document, { op: 'remove', path: operation.from }, true, true, true, index);
  const path = pointerSegments(operation.path);
  if (path.length > 0) {
    const parent = lookup(taken.newDocument, path.slice(0, -1));
    const key = path.at(-1)!;
    if (!parent.found || parent.value === null || typeof parent.value !== 'object') {
      throw new jsonpatch.JsonPatchError('Cannot perform the operation at a path that does not exist', 'OPERATION_PATH_UNRESOLVABLE', index, operation);
    }
    if (Array.isArray(parent.value) && key !== '-' && !(/^\d+$/.test(key) && Number(key) <= parent.value.length)) {
      throw new jsonpatch.JsonPatchError('The specified index MUST NOT be greater than the number of elements in the array', 'OPERATION_VALUE_OUT_OF_BOUNDS', index, operation);
    }
  }
  return jsonpatch.applyOperation(taken.newDocument, { op: 'add', path: operation.path, value: taken.removed }, false, true, true, index).newDocument;
}

/**
 * Applies RFC 6902 operations to a copy of `document`, one at a time: all of them or none (the copy is
 * discarded on the first failure), with fast-json-patch's validation and prototype-pollution guard on. A
 * caller that built `document` for this patch alone says so with `owned`: it is patched in place, not
 * copied first (and is left half-patched when the patch fails).
 * Each operation is priced before it runs (see {@link PATCH_RESULT_LIMIT}): no step grows the document past
 * `limit` bytes of JSON or {@link PATCH_DEPTH_LIMIT} levels, and a patch copies at most `limit` bytes, so
 * the work done is proportional to the limit whatever the operations. A failed `test` is a 409
 * `PatchTestFailed`; any other failure, a limit included, a 400 `ValidationError`. The caller validates
 * the result.
 *
 * @example applyJsonPatch({ a: 1 }, [{ op: 'replace', path: '/a', value: 2 }]) // { ok: true, value: { a: 2 } }
 * @example applyJsonPatch({ a: 'x'.repeat(600_000) }, [{ op: 'copy', from: '/a', path: '/b' }]) // { ok: false, error: a 400 naming the limit }
 */
export function applyJsonPatch<T>(
  document: T,
  operations: readonly Operation[],
  { limit = PATCH_RESULT_LIMIT, owned = false }: { limit?: number; owned?: boolean } = {},
): Result<unknown> {
  // 1. Measure the document, and copy it unless the caller owns it: a stored one is never touched.
  const measured = measureJson(document, Infinity)!;
  let estimate: Estimate = { bytes: measured.bytes, depth: measured.depth, copied: 0 };
  let patched: unknown = owned ? document : jsonpatch.deepClone(document);
  for (const [index, operation] of operations.entries()) {
    // 2. Price the operation: refused before it is done.
    const priced = price(patched, estimate, operation, index, limit);
    if (!priced.ok) return priced;
    // 3. Do it on the copy.
    try {
      patched = run(patched, priced.value.run, index);
    } catch (error) {
      const name = (error as { name?: string }).name;
      const message = error instanceof Error ? error.message.split('\n')[0] ?? 'invalid patch' : 'invalid patch';
      if (name === 'TEST_OPERATION_FAILED') return failed(fail('PatchTestFailed', `A JSON Patch test operation failed: ${message}`));
      return failed(fail('ValidationError', `Invalid JSON Patch: ${message}`));
    }
    estimate = priced.value.next;
  }
  return ok(patched);
}

/** The first path segment of a JSON pointer (`/parameters/rollout` -> `parameters`). */
export const topSegment = (pointer: string): string =>
  (pointer.split('/')[1] ?? '').replace(/~1/g, '/').replace(/~0/g, '~');
