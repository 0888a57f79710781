import jsonpatch, { type Operation } from 'fast-json-patch';
import { fail, type DomainError } from './errors.js';

export type PatchResult<T> = { ok: true; value: T } | { ok: false; error: DomainError };

/**
 * Applies RFC 6902 operations to a copy of `document`: all of them or none (the copy is discarded on the
 * first failure), with fast-json-patch's prototype-pollution guard on. A failed `test` is a 409
 * `PatchTestFailed`; any other failure a 400 `ValidationError`. The caller validates the result.
 *
 * @example applyJsonPatch({ a: 1 }, [{ op: 'replace', path: '/a', value: 2 }]) // { ok: true, value: { a: 2 } }
 */
export function applyJsonPatch<T>(document: T, operations: Operation[]): PatchResult<unknown> {
  try {
    const result = jsonpatch.applyPatch(document, operations, true, false, true);
    return { ok: true, value: result.newDocument };
  } catch (error) {
    const name = (error as { name?: string }).name;
    const message = error instanceof Error ? error.message.split('\n')[0] ?? 'invalid patch' : 'invalid patch';
    if (name === 'TEST_OPERATION_FAILED') return { ok: false, error: fail('PatchTestFailed', `A JSON Patch test operation failed: ${message}`) };
    return { ok: false, error: fail('ValidationError', `Invalid JSON Patch: ${message}`) };
  }
}

/** The first path segment of a JSON pointer (`/parameters/rollout` -> `parameters`). */
export const topSegment = (pointer: string): string =>
  (pointer.split('/')[1] ?? '').replace(/~1/g, '/').replace(/~0/g, '~');
