/**
 * The overview's health figure (API-DECISIONS "Overview") as a pure function of the flags and the clock:
 * the lifetimes of each flag type at their edges, stale versus potentially stale, archived flags, rounding.
 */
import { describe, expect, test } from 'vitest';
import type { Flag, FlagType } from '../../src/domain/types.js';
import { healthAt, healthFacts, projectHealth, stalenessAt } from '../../src/domain/project-health.js';

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.parse('2025-06-01T00:00:00.000Z');

/** A flag of `type` created `ageMs` before NOW. */
function flag(type: FlagType, ageMs: number, extra: Partial<Flag> = {}): Flag {
  return {
    name: `f-${Math.random()}`, description: '', type, stale: false, impressionData: false,
    createdAt: new Date(NOW - ageMs).toISOString(), lastSeenAt: null, archived: false, archivedAt: null,
    variants: [], version: 1, environments: {}, ...extra,
  };
}

describe('projectHealth', () => {
  test('is 100 without flags, and without active flags', () => {
    expect(projectHealth([], NOW)).toBe(100);
    expect(projectHealth([flag('release', 100 * DAY, { archived: true, stale: true })], NOW)).toBe(100);
  });

  test.each([
    ['release', 40],
    ['experiment', 40],
    ['operational', 7],
  ] as const)('a %s flag becomes potentially stale after %i days, not at them', (type, days) => {
    expect(projectHealth([flag(type, days * DAY)], NOW)).toBe(100);
    expect(projectHealth([flag(type, days * DAY + 1)], NOW)).toBe(0);
  });

  test.each(['kill-switch', 'permission'] as const)('a %s flag never becomes potentially stale', (type) => {
    expect(projectHealth([flag(type, 10_000 * DAY)], NOW)).toBe(100);
  });

  test('a stale flag counts once, as stale, whatever its age', () => {
    expect(projectHealth([flag('release', 100 * DAY, { stale: true }), flag('release', 0)], NOW)).toBe(50);
    expect(projectHealth([flag('kill-switch', 0, { stale: true }), flag('kill-switch', 0)], NOW)).toBe(50);
  });

  test('combines stale and potentially stale over active flags, rounded', () => {
    const flags = [
      flag('release', 0, { stale: true }),
      flag('operational', 8 * DAY),
      flag('release', 1 * DAY),
      flag('permission', 1000 * DAY, { archived: true }),
      flag('experiment', 41 * DAY, { archived: true }),
      flag('kill-switch', 1000 * DAY, { archived: true, stale: true }),
    ];
    // 3 active: 1 stale, 1 potentially stale: 100 - 33.3 - 33.3 = 33.3
    expect(projectHealth(flags, NOW)).toBe(33);
    // 3 of 7 flagged: 100 - 42.86 = 57.14
    expect(projectHealth([...Array(3)].map(() => flag('release', 50 * DAY)).concat([...Array(4)].map(() => flag('release', 0))), NOW)).toBe(57);
    // 1 of 8: 87.5 rounds up.
    expect(projectHealth([flag('release', 0, { stale: true }), ...[...Array(7)].map(() => flag('release', 0))], NOW)).toBe(88);
  });

  test('accepts any iterable, such as the values of the state map', () => {
    const map = new Map([['a', flag('release', 0, { stale: true })], ['b', flag('release', 0)]]);
    expect(projectHealth(map.values(), NOW)).toBe(50);
  });

  test('facts made once answer at any moment as counting the flags then would (creation order does not matter)', () => {
    const lifetimes: Record<FlagType, number | null> = { release: 40, experiment: 40, operational: 7, 'kill-switch': null, permission: null, sunset: 90 };
    const types = Object.keys(lifetimes) as FlagType[];
    // Ages in days, descending and ascending mixed, some stale, some archived, every type.
    const flags = [...Array(60)].map((_, i) => flag(types[i % types.length]!, ((i * 37) % 90) * DAY + 1, { stale: i % 11 === 0, archived: i % 13 === 0 }));
    const facts = healthFacts(flags);
    for (const days of [-100, 0, 5, 7.5, 30, 40, 60, 89, 200]) {
      const at = NOW + days * DAY;
      const active = flags.filter((f) => !f.archived);
      const stale = active.filter((f) => f.stale).length;
      const potentially = active.filter((f) => {
        const lifetime = lifetimes[f.type];
        return !f.stale && lifetime !== null && Date.parse(f.createdAt) + lifetime * DAY < at;
      }).length;
      expect(healthAt(facts, at), `${days} days on`).toBe(Math.round(100 - (100 * stale) / active.length - (100 * potentially) / active.length));
    }
  });
});

describe('stalenessAt', () => {
  test.each([
    ['release', 40],
    ['experiment', 40],
    ['operational', 7],
  ] as const)('a %s flag is fresh until %i days, potentially stale after, by the rule health counts with', (type, days) => {
    expect(stalenessAt(flag(type, days * DAY), NOW)).toBe('fresh');
    expect(stalenessAt(flag(type, days * DAY + 1), NOW)).toBe('potentially-stale');
    expect(projectHealth([flag(type, days * DAY + 1)], NOW)).toBe(0);
  });

  test('kill-switch and permission flags stay fresh; a flag marked stale is stale at any age', () => {
    expect(stalenessAt(flag('kill-switch', 10_000 * DAY), NOW)).toBe('fresh');
    expect(stalenessAt(flag('permission', 10_000 * DAY), NOW)).toBe('fresh');
    expect(stalenessAt(flag('release', 0, { stale: true }), NOW)).toBe('stale');
  });
});
