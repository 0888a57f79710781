/**
 * The feed's bounded history (src/actors/feed-history.ts): what a committed record is kept as, the bounds in
 * entries and bytes, the floor, and `since`.
 */
import { describe, expect, test } from 'vitest';
import { FeedHistory } from '../../src/actors/feed-history.js';
import type { CommittedRecord } from '../../src/actors/command-actor.js';

const record = (...events: object[]): CommittedRecord => ({ seq: 0, at: '2026-01-01T00:00:00.000Z', by: 'test', events });
const P = { project: 'web' };

describe('what a record is kept as', () => {
  test('flag events name the flag and, when they have one, the environment', () => {
    const history = new FeedHistory();
    history.record(P, [
      record({ type: 'flag.created', flag: { name: 'a' } }),
      record({ type: 'flag.enabled', name: 'a', version: 2, environment: 'production', added: null }),
      record({ type: 'flag.deleted', name: 'a', before: {} }),
    ], 13);
    expect(history.since(10, 13)!.map((e) => [e.revision, e.flags])).toEqual([
      [11, [{ project: 'web', name: 'a', environment: null }]],
      [12, [{ project: 'web', name: 'a', environment: 'production' }]],
      [13, [{ project: 'web', name: 'a', environment: null }]],
    ]);
  });

  test('project metadata, users, tokens and environments take no entry; segments do; a whole state is a reset', () => {
    const history = new FeedHistory();
    history.record(P, [record({ type: 'project.updated', meta: {}, before: {} })], 1);
    history.record('service', [record({ type: 'token.created', token: {} }), record({ type: 'environment.created', environment: {} })], 3);
    expect(history.size().events).toBe(0);
    history.record('service', [record({ type: 'segment.updated', segment: { id: 7 }, before: {} }), record({ type: 'service.initialized', state: {} })], 5);
    expect(history.since(3, 5)!.map((e) => [e.revision, e.segments, e.reset])).toEqual([[4, [7], false], [5, [], true]]);
  });

  test('a project event of an unknown kind is a reset (a hydration is always right)', () => {
    const history = new FeedHistory();
    history.record(P, [record({ type: 'flag.teleported' })], 1);
    expect(history.since(0, 1)![0]!.reset).toBe(true);
  });
});

describe('bounds and floor', () => {
  test('the floor is the revision before the first batch, or the current one before any', () => {
    const history = new FeedHistory();
    expect(history.floor(40)).toBe(40);
    history.record(P, [record({ type: 'flag.created', flag: { name: 'a' } })], 41);
    expect(history.floor(45)).toBe(40);
    expect(history.since(39, 41)).toBeUndefined();
    expect(history.since(40, 41)).toHaveLength(1);
    expect(history.since(41, 41)).toEqual([]);
  });

  test('past the entry bound the oldest are dropped and the floor moves to the last dropped', () => {
    const history = new FeedHistory({ events: 3, bytes: 1_000_000 });
    for (let r = 1; r <= 5; r += 1) history.record(P, [record({ type: 'flag.created', flag: { name: `f${r}` } })], r);
    expect(history.size().events).toBe(3);
    expect(history.floor(5)).toBe(2);
    expect(history.since(1, 5)).toBeUndefined();
    expect(history.since(2, 5)!.map((e) => e.revision)).toEqual([3, 4, 5]);
    expect(history.since(4, 5)!.map((e) => e.revision)).toEqual([5]);
  });

  test('past the byte bound too, keeping at least the newest entry', () => {
    const history = new FeedHistory({ events: 1000, bytes: 1 });
    for (let r = 1; r <= 3; r += 1) history.record(P, [record({ type: 'flag.created', flag: { name: 'x'.repeat(100) } })], r);
    expect(history.size().events).toBe(1);
    expect(history.since(2, 3)!.map((e) => e.revision)).toEqual([3]);
  });

  test('many drops keep since() right across compactions', () => {
    const history = new FeedHistory({ events: 100, bytes: 1_000_000 });
    for (let r = 1; r <= 5000; r += 1) history.record(P, [record({ type: 'flag.created', flag: { name: 'f' } })], r);
    expect(history.size().events).toBe(100);
    expect(history.since(4949, 5000)!.map((e) => e.revision)).toEqual(Array.from({ length: 51 }, (_, i) => 4950 + i));
  });
});
