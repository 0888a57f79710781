/**
 * `explain` (playground) and `evaluate` (fast path) must give the same
 * `enabled` and `variant` for the same input; checked on every vector of
 * every loaded specification file, `tests` and `variantTests` alike.
 * Randomness is an input like the context: where the SDK falls back to a
 * random sticky id (no userId, sessionId or remoteAddress for a variant), both
 * paths must see the same random numbers to be comparable, so `Math.random` is
 * pinned per test.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { compileFlags, evaluate, explain } from '../../src/domain/evaluation/index.js';
import { loadSpecFiles } from './client-spec.js';

const files = loadSpecFiles();

beforeEach(() => {
  vi.spyOn(Math, 'random').mockReturnValue(0.37);
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe.each(files.map((f) => [f.file, f] as const))('%s', (_name, file) => {
  const flags = compileFlags(file.definitions, file.segments);
  const vectors = [...file.tests, ...file.variantTests].filter((v) => flags.has(v.toggleName));

  test.each(vectors.map((v) => [v.description, v] as const))('%s', (_description, vector) => {
    const flag = flags.get(vector.toggleName)!;
    const fast = evaluate(flag, vector.context, flags);
    const explained = explain(flag, vector.context, flags);
    expect(explained.isEnabled).toBe(fast.enabled);
    expect(explained.variant).toEqual(fast.variant);
    expect(explained.strategies.data).toHaveLength(flag.strategies.length);
    if (fast.enabled && flag.active.length > 0) expect(explained.strategies.result).toBe(true);
  });
});
