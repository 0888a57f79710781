/**
 * The feed's bounded history (src/actors/feed-history.ts): what a committed record is kept as, the bounds in
 * entries and bytes, the floor, and `since`.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { FeedHistory } from '../../src/actors/feed-history.js';
import type { CommittedRecord } from '../../src/actors/actor-model.js';

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

  test('a flag the history already names is shared and counted once; an entry alone counts little', () => {
    const history = new FeedHistory();
    const toggle = (name: string, r: number) => history.record(P, [record({ type: 'flag.enabled', name, environment: 'dev' })], r);
    toggle('a', 1);
    const first = history.size().bytes;
    toggle('a', 2);
    const again = history.size().bytes - first;
    toggle('b'.repeat(100), 3);
    const longName = history.size().bytes - first - again;
    expect(again).toBeGreaterThan(0);
    expect(first).toBeGreaterThan(again);
    // The first touch counts its names (twice: the estimate of what it keeps alive).
    expect(longName - first).toBeGreaterThanOrEqual(2 * 99);
    const [one, two] = history.since(0, 3)!;
    expect(two!.flags[0]).toBe(one!.flags[0]);
    // Several touches in one record: listed in order, duplicates kept, counted beyond a single one.
    history.record(P, [record({ type: 'flag.enabled', name: 'a', environment: 'dev' }, { type: 'flag.updated', name: 'c' }, { type: 'flag.enabled', name: 'a', environment: 'dev' })], 4);
    expect(history.since(3, 4)![0]!.flags).toEqual([
      { project: 'web', name: 'a', environment: 'dev' }, { project: 'web', name: 'c', environment: null }, { project: 'web', name: 'a', environment: 'dev' },
    ]);
  });

  test('many drops keep since() right across compactions', () => {
    const history = new FeedHistory({ events: 100, bytes: 1_000_000 });
    for (let r = 1; r <= 5000; r += 1) history.record(P, [record({ type: 'flag.created', flag: { name: 'f' } })], r);
    expect(history.size().events).toBe(100);
    expect(history.since(4949, 5000)!.map((e) => e.revision)).toEqual(Array.from({ length: 51 }, (_, i) => 4950 + i));
  });
});

describe('changesSince: what a client at some revision needs', () => {
  type Op = { kind: 'flag'; name: string; environment: string | null } | { kind: 'segment'; id: number } | { kind: 'reset' };
  const opEvent = (op: Op): object =>
    op.kind === 'flag' ? (op.environment === null ? { type: 'flag.updated', name: op.name } : { type: 'flag.enabled', name: op.name, environment: op.environment })
      : op.kind === 'segment' ? { type: 'segment.updated', segment: { id: op.id } } : { type: 'service.initialized', state: {} };

  /**
   * Each key once at its latest revision, in the order of those revisions: what the delta makes of the calls
   * (it keeps flags and segments apart and sorts its events by revision, so only that order counts).
   */
  const byRevision = (seen: Map<string, number>) => [...seen].sort((a, b) => a[1] - b[1]);

  function latest(history: FeedHistory, from: number, current: number) {
    const seen = new Map<string, number>();
    let calls = 0;
    const note = (key: string, revision: number) => {
      calls += 1;
      seen.delete(key);
      seen.set(key, revision);
    };
    const outcome = history.changesSince(from, current, (t, r) => note(`${t.project}/${t.name}/${t.environment}`, r), (id, r) => note(`segment ${id}`, r));
    return { outcome, changes: outcome === 'changes' ? byRevision(seen) : [], calls };
  }

  /** The same from every record ever made, kept whole. */
  function reference(log: { revision: number; ops: Op[] }[], floor: number, from: number) {
    if (from < floor) return { outcome: 'gone', changes: [] };
    const after = log.filter((r) => r.revision > from);
    if (after.some((r) => r.ops.some((op) => op.kind === 'reset'))) return { outcome: 'reset', changes: [] };
    const seen = new Map<string, number>();
    for (const r of after) for (const op of r.ops) {
      const key = op.kind === 'flag' ? `web/${op.name}/${op.environment}` : op.kind === 'segment' ? `segment ${op.id}` : '';
      seen.delete(key);
      seen.set(key, r.revision);
    }
    return { outcome: 'changes', changes: byRevision(seen) };
  }

  const op = fc.oneof(
    { weight: 20, arbitrary: fc.record({ kind: fc.constant('flag' as const), name: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'), environment: fc.constantFrom(null, 'dev', 'prod') }) },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('segment' as const), id: fc.integer({ min: 1, max: 3 }) }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'reset' as const }) },
  );

  test('a client a few changes behind and one behind a flood of changes to the same flags both get what the whole log says', () => {
    fc.assert(fc.property(fc.array(fc.array(op, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 400 }), fc.integer({ min: 5, max: 120 }), (records, bound) => {
      const history = new FeedHistory({ events: bound, bytes: 1_000_000 });
      const log: { revision: number; ops: Op[] }[] = [];
      let revision = 0;
      for (const ops of records) {
        revision += 1;
        // A reset is the service's; flag touches are the project's: one record each, as the actors commit them.
        const service = ops.filter((o) => o.kind !== 'flag');
        const project = ops.filter((o) => o.kind === 'flag');
        if (service.length > 0) history.record('service', [record(...service.map(opEvent))], revision);
        if (project.length > 0) {
          if (service.length > 0) revision += 1;
          history.record(P, [record(...project.map(opEvent))], revision);
        }
        if (service.length > 0) log.push({ revision: revision - (project.length > 0 ? 1 : 0), ops: service });
        if (project.length > 0) log.push({ revision, ops: project });
        const floor = history.floor(revision);
        for (const from of new Set([revision, revision - 1, revision - 3, revision - 40, floor, floor + 1, floor - 1])) {
          if (from < 0) continue;
          const { outcome, changes } = latest(history, from, revision);
          expect({ outcome, changes }).toEqual(reference(log, floor, from));
        }
      }
      // At the end, every revision a client may present, from before the floor to the current one.
      const floor = history.floor(revision);
      for (let from = Math.max(0, floor - 1); from <= revision; from += 1) {
        const { outcome, changes } = latest(history, from, revision);
        expect({ outcome, changes }).toEqual(reference(log, floor, from));
      }
    }), { numRuns: 150 });
  });

  test('behind a flood it reads each flag once, not every change since', () => {
    const history = new FeedHistory();
    for (let r = 1; r <= 5000; r += 1) history.record(P, [record({ type: 'flag.enabled', name: `f${r % 10}`, environment: 'dev' })], r);
    expect(latest(history, 0, 5000)).toMatchObject({ outcome: 'changes', calls: 10 });
    expect(latest(history, 4995, 5000)).toMatchObject({ outcome: 'changes', calls: 5 });
    expect(latest(history, 0, 5000).changes.map(([, r]) => r)).toEqual([4991, 4992, 4993, 4994, 4995, 4996, 4997, 4998, 4999, 5000]);
  });

  test('the latest touches of flags past the floor are forgotten, in passes, so they stay bounded', () => {
    const history = new FeedHistory({ events: 100, bytes: 1_000_000 });
    let most = 0;
    for (let r = 1; r <= 10_000; r += 1) {
      history.record(P, [record({ type: 'flag.created', flag: { name: `f${r}` } })], r);
      most = Math.max(most, history.size().latest);
    }
    // 100 within the history, and at most one pass's worth (1,024 revisions) past its floor.
    expect(most).toBeLessThanOrEqual(100 + 1024);
    expect(history.size()).toMatchObject({ events: 100 });
    expect(latest(history, 9_990, 10_000).changes.map(([key]) => key)).toEqual(Array.from({ length: 10 }, (_, i) => `web/f${9_991 + i}/null`));
  });

  test('a flag forgotten past the floor and touched again is a change again, on both paths', () => {
    const history = new FeedHistory({ events: 100, bytes: 1_000_000 });
    history.record(P, [record({ type: 'flag.enabled', name: 'old', environment: 'dev' })], 1);
    for (let r = 2; r <= 3000; r += 1) history.record(P, [record({ type: 'flag.created', flag: { name: `f${r % 50}` } })], r);
    expect(history.size().latest).toBeLessThanOrEqual(50);
    history.record(P, [record({ type: 'flag.enabled', name: 'old', environment: 'dev' })], 3001);
    expect(latest(history, 3000, 3001).changes).toEqual([['web/old/dev', 3001]]);
    // Far behind (the latest touches: 51 of them, fewer than the 100 entries since 2901).
    expect(latest(history, 2901, 3001).changes.at(-1)).toEqual(['web/old/dev', 3001]);
    expect(latest(history, 2901, 3001).calls).toBe(51);
  });

  test('a revision before the floor is gone; a reset after it asks for a hydration', () => {
    const history = new FeedHistory({ events: 3, bytes: 1_000_000 });
    for (let r = 1; r <= 5; r += 1) history.record(P, [record({ type: 'flag.created', flag: { name: `f${r}` } })], r);
    expect(latest(history, 1, 5).outcome).toBe('gone');
    history.record('service', [record({ type: 'service.initialized', state: {} })], 6);
    expect(latest(history, 5, 6).outcome).toBe('reset');
    history.record(P, [record({ type: 'flag.created', flag: { name: 'g' } })], 7);
    expect(latest(history, 6, 7)).toMatchObject({ outcome: 'changes', changes: [['web/g/null', 7]] });
  });
});
