/**
 * The potential-staleness check (`flags.potential-staleness.check`), given / when / then over the service decider: a
 * flag past its type's lifetime is marked once (unannounced on a service's first check), unmarked when no longer so or
 * gone; stale and archived flags keep their mark as it is, as in Unleash.
 */
import { describe, test } from 'vitest';
import type { FlagsByProject, ServiceLookups } from '../../src/domain/context.js';
import type { ServiceEvent } from '../../src/domain/service-events.js';
import type { Flag } from '../../src/domain/types.js';
import { AT, givenService, projects } from '../helpers/decider.js';

const DAY = 24 * 60 * 60 * 1000;
const CHECK = { type: 'flags.potential-staleness.check' } as const;

/** A flag created `days` before AT. */
const flag = (name: string, days: number, fields: Partial<Flag> = {}): Flag => ({
  name, description: '', type: 'release', stale: false, impressionData: false, createdAt: new Date(Date.parse(AT) - days * DAY).toISOString(),
  lastSeenAt: null, archived: false, archivedAt: null, variants: [], version: 1, environments: {}, ...fields,
});

/** Lookups of a world whose projects hold these flags (and these unreadable projects). */
const world = (served: Record<string, Flag[]>, unreadable: string[] = []): ServiceLookups => ({
  ...projects(...Object.keys(served)),
  flagsByProject: (): FlagsByProject => ({ served: Object.entries(served).map(([project, flags]) => [project, new Map(flags.map((f) => [f.name, f]))]), unreadable }),
});

const changed = (on: [string, string][], off: [string, string][] = [], announced = true): ServiceEvent => ({
  type: 'flags.potential-staleness-changed', announced,
  on: on.map(([project, name]) => ({ project, name })), off: off.map(([project, name]) => ({ project, name })),
});

describe('the first check of a service', () => {
  test('marks the flags already past their lifetime without announcing them; a young flag, a kill switch and a stale one are not marked', () => {
    givenService([], world({ default: [flag('old', 41), flag('young', 39), flag('switch', 400, { type: 'kill-switch' }), flag('stale', 400, { stale: true })] }))
      .when(CHECK).then([changed([['default', 'old']], [], false)]);
  });

  test('records its empty marks even when no flag is old, so the next check announces', () => {
    givenService([], world({ default: [flag('young', 1)] })).when(CHECK).then([changed([], [], false)]);
  });
});

describe('later checks', () => {
  const baseline = changed([['default', 'old']], [], false);

  test('announce each flag once, when it passes its lifetime (operational: 7 days)', () => {
    givenService([baseline], world({ default: [flag('old', 41), flag('ops', 8, { type: 'operational' })] }))
      .when(CHECK, CHECK).then([changed([['default', 'ops']])]);
  });

  test('unmark a flag whose type no longer makes it old, and a flag deleted since; a stale or archived flag keeps its mark', () => {
    const marked = [baseline, changed([['default', 'ops'], ['default', 'gone'], ['default', 'staled'], ['default', 'archived']])];
    const flags = [flag('old', 41, { type: 'permission' }), flag('ops', 8, { type: 'sunset' }), flag('staled', 50, { stale: true }), flag('archived', 50, { archived: true })];
    givenService(marked, world({ default: flags }))
      .when(CHECK).then([changed([], [['default', 'old'], ['default', 'ops'], ['default', 'gone']])]);
  });

  test('a deleted project\'s marks go; an unreadable project\'s stay', () => {
    const marked = [changed([['gone', 'a'], ['broken', 'b']], [], false)];
    givenService(marked, world({ default: [] }, ['broken'])).when(CHECK).then([changed([], [['gone', 'a']])]);
  });

  test('nothing changed, nothing recorded; a flag named like a built-in property is a name like any other', () => {
    givenService([changed([['__proto__', 'constructor']], [], false)], world(Object.fromEntries([['__proto__', [flag('constructor', 41)]]])))
      .when(CHECK).then([]);
  });
});
