/**
 * `planMigration`: what recovery does with machine values stored under other versions. Equal versions need
 * nothing; an older one is migrated step by step when every step has a migration; anything else (newer code,
 * a missing step, a machine one side does not know) is refused with a reason an operator can act on.
 */
import { describe, expect, test } from 'vitest';
import { PROJECT_MACHINE_VERSIONS, planMigration, type MachineMigration } from '../../machines/versions.js';

const CURRENT = { lifecycle: 3, environment: 1 };

describe('planMigration', () => {
  test('equal versions: no migrations', () => {
    expect(planMigration({ lifecycle: 3, environment: 1 }, CURRENT, {})).toEqual({ ok: true, migrations: [] });
    expect(planMigration({ ...PROJECT_MACHINE_VERSIONS }, PROJECT_MACHINE_VERSIONS)).toEqual({ ok: true, migrations: [] });
  });

  test('a newer stored version is refused with a reason naming both versions', () => {
    const plan = planMigration({ lifecycle: 4, environment: 1 }, CURRENT, {});
    expect(plan.ok).toBe(false);
    if (!plan.ok) {
      expect(plan.reason).toContain('newer code');
      expect(plan.reason).toContain('lifecycle machine version 4');
      expect(plan.reason).toContain('this code has version 3');
    }
  });

  test('an older version without a migration is refused, naming the missing step', () => {
    const plan = planMigration({ lifecycle: 1, environment: 1 }, CURRENT, { lifecycle: { 1: (item) => item } });
    expect(plan).toEqual({ ok: false, reason: 'no migration of the lifecycle machine from version 2 to 3' });
    expect(planMigration({ lifecycle: 2, environment: 1 }, CURRENT, {})).toEqual({ ok: false, reason: 'no migration of the lifecycle machine from version 2 to 3' });
  });

  test('an older version with migrations in a custom table: applied in order, one per step', () => {
    const calls: string[] = [];
    const step = (name: string): MachineMigration => (item) => {
      calls.push(name);
      return { ...(item as object), [name]: true };
    };
    const table = { lifecycle: { 1: step('1→2'), 2: step('2→3') }, environment: { 0: step('env 0→1') } };
    const plan = planMigration({ lifecycle: 1, environment: 0 }, CURRENT, table);
    expect(plan.ok).toBe(true);
    if (!plan.ok) return;
    expect(plan.migrations).toEqual([table.lifecycle[1], table.lifecycle[2], table.environment[0]]);
    const migrated = plan.migrations.reduce<unknown>((item, migrate) => migrate(item), { name: 'f' });
    expect(calls).toEqual(['1→2', '2→3', 'env 0→1']);
    expect(migrated).toEqual({ name: 'f', '1→2': true, '2→3': true, 'env 0→1': true });
  });

  test('an unknown stored machine is refused, naming it', () => {
    expect(planMigration({ lifecycle: 3, environment: 1, gremlin: 1 }, CURRENT, {}))
      .toEqual({ ok: false, reason: 'it records the gremlin machine, which this code does not know' });
  });

  test('a machine the snapshot records no version of is refused, naming it and the current version', () => {
    expect(planMigration({ lifecycle: 3 }, CURRENT, {}))
      .toEqual({ ok: false, reason: 'it records no version of the environment machine (this code has version 1)' });
    expect(planMigration(undefined, CURRENT, {}).ok).toBe(false);
  });

  test('a machine added later (flag-stage) is at version 0 in snapshots written before it, and migrated from there', () => {
    const { 'flag-stage': _stage, ...before } = PROJECT_MACHINE_VERSIONS;
    const plan = planMigration(before, PROJECT_MACHINE_VERSIONS);
    expect(plan.ok && plan.migrations.length).toBe(1);
    const flag = { name: 'f', archived: false };
    expect(plan.ok && plan.migrations[0]!(flag)).toEqual(flag);
  });

  test('with nothing current and nothing stored (the service): no migrations', () => {
    expect(planMigration({}, {}, {})).toEqual({ ok: true, migrations: [] });
  });
});
