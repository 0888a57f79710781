import { describe, expect, it } from 'vitest';
import { expectInheritsNothing } from '../helpers/expect.js';
import { dict, own, withKey, withoutKey } from '../../src/domain/dict.js';
import type { FlagEvent } from '../../src/domain/events.js';
import { applyFlagEvent } from '../../src/domain/flag-events.js';
import type { Flag } from '../../src/domain/types.js';
import { strategy } from '../helpers/project-events.js';

describe('maps that inherit nothing (dict.ts)', () => {
  it('given a JSON object with a "__proto__" key, when copied, then the key is an own entry and nothing is inherited', () => {
    const parsed = JSON.parse('{"__proto__": {"polluted": true}, "production": 1}') as Record<string, unknown>;
    const copy = dict(parsed);
    expectInheritsNothing(copy);
    expect(Object.keys(copy)).toEqual(['__proto__', 'production']);
    expect((copy as { polluted?: unknown }).polluted).toBeUndefined();
    expect(JSON.stringify(copy)).toBe('{"__proto__":{"polluted":true},"production":1}');
  });

  it('given a map, when a key is set or removed, then the source is untouched and the order of the others is kept', () => {
    const source = dict([['development', 1], ['production', 2], ['staging', 3]]);
    const added = withKey(source, '__proto__', 4);
    expect(Object.keys(added)).toEqual(['development', 'production', 'staging', '__proto__']);
    expect(own(added, '__proto__')).toBe(4);
    expectInheritsNothing(added);
    const replaced = withKey(source, 'development', 9);
    expect(Object.entries(replaced)).toEqual([['development', 9], ['production', 2], ['staging', 3]]);
    const removed = withoutKey(source, 'production');
    expect(Object.entries(removed)).toEqual([['development', 1], ['staging', 3]]);
    expect(Object.entries(source)).toEqual([['development', 1], ['production', 2], ['staging', 3]]);
  });

  it('given a plain object, when copied, then only its own keys are taken, not what its prototype lends', () => {
    const inherited = Object.assign(Object.create({ lent: 1 }) as Record<string, number>, { mine: 2 });
    expect(Object.keys(dict(inherited))).toEqual(['mine']);
    expect(own(dict(inherited), 'lent')).toBeUndefined();
  });
});

describe('applyFlagEvent', () => {
  const flag: Flag = {
    name: 'f', description: '', type: 'release', stale: false, impressionData: false, createdAt: '2026-01-01T00:00:00.000Z',
    lastSeenAt: null, archived: false, archivedAt: null, variants: [], version: 1,
    environments: dict([['development', { enabled: false, strategies: [strategy('s1')] }]]),
  };
  const enabled: FlagEvent = { type: 'flag.enabled', name: 'f', version: 2, environment: 'development', added: null };

  it('given the flag and event it just applied, when asked again (decide, then evolve), then it gives back the same flag', () => {
    const decided = applyFlagEvent(flag, enabled);
    expect(applyFlagEvent(flag, enabled)).toBe(decided);
    expect(decided?.environments['development']?.enabled).toBe(true);
    expect(flag.environments['development']?.enabled).toBe(false);
  });

  it('given another flag or an equal but distinct event, when applied, then the flag is built afresh from those', () => {
    const first = applyFlagEvent(flag, enabled)!;
    const later = applyFlagEvent(first, { type: 'flag.disabled', name: 'f', version: 3, environment: 'development' })!;
    expect(later.environments['development']?.enabled).toBe(false);
    expect(later.version).toBe(3);
    const again = applyFlagEvent(flag, { ...enabled, version: 4 })!;
    expect(again).not.toBe(first);
    expect(again.version).toBe(4);
  });
});
