import { expect } from 'vitest';
import type { Harness } from './harness.js';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The error envelope of API-DECISIONS "Errors", with the expected status and kind. */
export function expectError(r: { status: number; body: any }, status: number, name: string, message?: RegExp): void {
  expect({ status: r.status, name: r.body?.name }).toEqual({ status, name });
  expect(r.body.id).toMatch(UUID);
  expect(typeof r.body.message).toBe('string');
  if (message) expect(r.body.message).toMatch(message);
}

/** Every log position, the service's and each project's: equal before and after means nothing was written. */
export const positions = (h: Harness): string =>
  JSON.stringify([h.registry.service.seq, ...h.registry.projectIds().map((id) => [id, h.registry.project(id)!.seq])]);

/**
 * Runs `act` and asserts it wrote nothing: no log position moved and, when `flag` (in project `default`)
 * is given, its detail GET answers the same.
 */
export async function expectNoChange(h: Harness, act: () => Promise<unknown>, flag?: string): Promise<void> {
  const path = `/api/admin/projects/default/features/${flag}`;
  const before = positions(h);
  const detail = flag ? (await h.json('GET', path)).body : undefined;
  await act();
  expect(positions(h)).toBe(before);
  if (flag) expect((await h.json('GET', path)).body).toEqual(detail);
}

/**
 * Asserts that `map` inherits nothing (a dict of `src/domain/dict.ts`): every object in its prototype chain is
 * empty and frozen, so no member of `Object.prototype` (or anything added later) reads through it.
 */
export function expectInheritsNothing(map: object): void {
  let depth = 0;
  for (let proto = Object.getPrototypeOf(map) as object | null; proto !== null; proto = Object.getPrototypeOf(proto) as object | null) {
    expect(Reflect.ownKeys(proto)).toEqual([]);
    expect(Object.isFrozen(proto)).toBe(true);
    depth += 1;
  }
  expect(depth).toBeLessThanOrEqual(1);
  for (const name of ['toString', 'constructor', 'hasOwnProperty', 'valueOf', '__proto__']) {
    if (!Object.hasOwn(map, name)) expect(name in map).toBe(false);
  }
}
