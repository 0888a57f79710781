/**
 * The usage models keep what they hold bounded (`USAGE_BOUNDS`, docs/limits.md): given sightings past a
 * bound, when a flush is planned and applied, then the least recently seen entries are the ones dropped and
 * the plan says so (the deletions the store must write).
 */
import { describe, expect, test } from 'vitest';
import { ClientApplications, type ClientSighting } from '../../src/domain/client-applications.js';
import { UsageCounts } from '../../src/domain/usage-counts.js';
import { HOUR_MS, type Plan } from '../../src/domain/usage-records.js';
import { USAGE_BOUNDS } from '../../src/limits.js';

const NOW = Date.parse('2026-11-23T12:30:00.000Z');
/** What the usage actor does with a plan once its write succeeded: every change iterated, then applied. */
const apply = (plan: Plan<unknown>) => {
  [...plan.changes];
  plan.apply();
};
const at = (offsetMs: number) => new Date(NOW + offsetMs).toISOString();
const sighting = (appName: string, instanceId: string, offsetMs: number, extra: Partial<ClientSighting> = {}): ClientSighting =>
  ({ appName, instanceId, environment: 'development', projects: ['*'], sdkVersion: null, clientIp: null, at: at(offsetMs), ...extra });

describe('applications and instances', () => {
  test('given 1,000 applications, when one more registers, then the least recently seen one is dropped', () => {
    const apps = new ClientApplications();
    for (let i = 0; i < USAGE_BOUNDS.applications; i += 1) apps.record(sighting(`app-${i}`, 'i', i));
    apps.plan(NOW).apply();
    apps.record(sighting('app-0', 'i', 5000)); // seen again: now the most recent
    apps.record(sighting('newcomer', 'i', 6000));
    const plan = apps.plan(NOW + 10_000);
    expect(plan.changes.filter((c) => c.kind === 'app-removed')).toEqual([{ kind: 'app-removed', appName: 'app-1' }]);
    plan.apply();
    expect(apps.list().length).toBe(USAGE_BOUNDS.applications);
    expect(apps.get('app-1')).toBeUndefined();
    expect(apps.get('app-0')?.seenAt).toBe(at(5000));
    expect(apps.get('newcomer')).toBeDefined();
  });

  test('given 10,000 instances, when one more reports, then the least recently seen instance is dropped', () => {
    const apps = new ClientApplications();
    for (let i = 0; i < USAGE_BOUNDS.instances; i += 1) apps.record(sighting('app', `i-${i}`, i));
    apps.plan(NOW).apply();
    apps.record(sighting('app', 'i-new', 20_000));
    const plan = apps.plan(NOW + 30_000);
    expect(plan.changes.filter((c) => c.kind === 'instance-removed')).toEqual([{ kind: 'instance-removed', appName: 'app', instanceId: 'i-0' }]);
    plan.apply();
    expect(apps.instancesOf('app').length).toBe(USAGE_BOUNDS.instances);
    expect(apps.instancesOf('app')[0]!.instanceId).toBe('i-new');
  });

  test('a registration keeps its strategies; a later metrics post keeps them and adds its environment', () => {
    const apps = new ClientApplications();
    apps.record(sighting('app', 'i', 0, { strategies: ['default'], sdkVersion: 'sdk:1' }));
    apps.record(sighting('app', 'i', 1, { environment: 'production', projects: ['web'] }));
    apps.plan(NOW).apply();
    expect(apps.get('app')).toMatchObject({
      strategies: ['default'], sdkVersion: 'sdk:1',
      usage: [{ project: '*', environments: ['development'] }, { project: 'web', environments: ['production'] }],
    });
  });
});

describe('counts', () => {
  test('variant names per bucket and applications per flag are capped; counts never pass the safe integers', () => {
    const counts = new UsageCounts();
    const variants = Object.fromEntries(Array.from({ length: USAGE_BOUNDS.variantsPerBucket + 5 }, (_, i) => [`v${i}`, 1]));
    for (let i = 0; i < USAGE_BOUNDS.applicationsPerFlag + 3; i += 1) {
      counts.record('development', `app-${i}`, NOW + i, NOW, [{ project: 'p', flag: 'f', yes: Number.MAX_SAFE_INTEGER, no: 0, variants }]);
    }
    apply(counts.plan(NOW + 1000));
    const [cell] = counts.cells('p', 'f');
    expect(Object.keys(cell!.variants).length).toBe(USAGE_BOUNDS.variantsPerBucket);
    expect(cell!.yes).toBe(Number.MAX_SAFE_INTEGER);
    expect(counts.apps('p', 'f').size).toBe(USAGE_BOUNDS.applicationsPerFlag);
    expect(counts.apps('p', 'f').has('app-0')).toBe(false);
  });

  test('a plan that is never applied (a failed write) publishes nothing', () => {
    const counts = new UsageCounts();
    counts.record('development', 'app', NOW, NOW, [{ project: 'p', flag: 'f', yes: 1, no: 0, variants: {} }]);
    expect([...counts.plan(NOW).changes].map((c) => c.kind)).toEqual(['cell', 'seen']);
    expect(counts.seen('p', 'f').lastSeenAt).toBeNull();
    expect([...counts.plan(NOW).changes]).toEqual([]);
  });

  test('the version moves only when a lastSeenAt changes', () => {
    const counts = new UsageCounts();
    counts.record('development', 'app', NOW, NOW, [{ project: 'p', flag: 'f', yes: 1, no: 0, variants: {} }]);
    apply(counts.plan(NOW));
    const version = counts.version('p');
    apply(counts.plan(NOW + HOUR_MS));
    expect(counts.version('p')).toBe(version);
    counts.record('development', 'app', NOW + 1, NOW, [{ project: 'p', flag: 'f', yes: 1, no: 0, variants: {} }]);
    apply(counts.plan(NOW + 2));
    expect(counts.version('p')).toBe(version + 1);
    expect(counts.version('other')).toBe(0);
  });
});
