/**
 * The migration planner's environment steps against targets the CLI tests cannot stand up: a flagpole without
 * the environment routes (an older one: its OpenAPI document lacks them), a protected target environment, and
 * the order of on/off around the projects' connections. The planner is pure (source, dump, capabilities in;
 * steps out); the CLI tests (test/cli/migrate.test.ts) send what it plans to a real flagpole.
 */
import { describe, expect, it } from 'vitest';
import type { Capabilities } from '../../src/migrate/plan.js';
import { serviceSteps } from '../../src/migrate/service-steps.js';
import type { SourceData } from '../../src/migrate/source-model.js';
import type { TargetDump } from '../../src/migrate/target.js';

const ALL: Capabilities = { projectFields: new Set(['mode', 'defaultStickiness']), projectUpdate: true, environmentUpdate: true, environmentToggle: true, environmentSortOrder: true };
const NONE: Capabilities = { projectFields: new Set(), projectUpdate: false, environmentUpdate: false, environmentToggle: false, environmentSortOrder: false };

type Env = { name: string; type: string; sortOrder: number; enabled: boolean };

function source(environments: Env[], projects: { id: string; environments: string[] }[] = []): SourceData {
  return {
    version: '6.10.1', major: 6, environments, flags: [], segments: [], tagTypes: [], contextFields: [], strategyDefinitions: [], users: [], members: null, tokens: [], addons: [],
    projects: projects.map((p) => ({ id: p.id, name: p.id, description: '', mode: null, defaultStickiness: null, environments: p.environments, defaultStrategies: {} })),
  };
}

function dump(environments: (Env & { protected?: boolean })[], projects: { id: string; environments: string[] }[] = []): TargetDump {
  return {
    service: { state: { environments: environments.map((e) => ({ protected: false, ...e })), tagTypes: [], contextFields: [], strategyDefinitions: [], segments: {}, users: {} } },
    projects: projects.map((p) => ({ id: p.id, flags: [], meta: { id: p.id, name: p.id, description: '', environments: p.environments, members: {}, defaultStrategies: {} } })),
  } as unknown as TargetDump;
}

const environmentSteps = (s: SourceData, d: TargetDump, caps: Capabilities) => serviceSteps(s, d, caps).filter((x) => x.kind === 'environments');
const ops = (list: { method: string; path: unknown; body?: unknown }[] | undefined) => (list ?? []).map((o) => [o.method, o.path, ...(o.body === undefined ? [] : [o.body])]);

describe('migrate plan: environments', () => {
  it('a missing environment is created on; one off in the source is turned off only after the projects (`after`)', () => {
    const [off, on] = environmentSteps(source([{ name: 'qa', type: 'test', sortOrder: 4, enabled: false }, { name: 'uat', type: 'test', sortOrder: 5, enabled: true }]), dump([]), ALL);
    expect(off).toMatchObject({ action: 'create', detail: 'type test, sort order 4, off' });
    expect(ops(off!.ops)).toEqual([['POST', '/api/admin/environments', { name: 'qa', type: 'test', sortOrder: 4 }]]);
    expect(ops(off!.after)).toEqual([['POST', '/api/admin/environments/qa/off']]);
    expect(on!.after).toBeUndefined();
  });

  it('type, sort order and on/off of an existing one, each through its route; equal: unchanged, no request', () => {
    const [changed, same] = environmentSteps(
      source([{ name: 'qa', type: 'test', sortOrder: 4, enabled: true }, { name: 'dev', type: 'development', sortOrder: 1, enabled: true }]),
      dump([{ name: 'qa', type: 'staging', sortOrder: 9, enabled: false }, { name: 'dev', type: 'development', sortOrder: 1, enabled: true }]), ALL);
    expect(changed).toMatchObject({ action: 'update', detail: 'type staging → test; sort order 9 → 4; on' });
    expect(ops(changed!.ops)).toEqual([
      ['PUT', '/api/admin/environments/update/qa', { type: 'test' }], ['PUT', '/api/admin/environments/sort-order', { qa: 4 }], ['POST', '/api/admin/environments/qa/on'],
    ]);
    expect(same).toEqual({ kind: 'environments', name: 'dev', action: 'unchanged', ops: [] });
  });

  it('off in both but a project still has to connect it: on now, off after; once connected, unchanged', () => {
    const env = [{ name: 'qa', type: 'test', sortOrder: 4, enabled: false }];
    const [step] = environmentSteps(source(env, [{ id: 'web', environments: ['qa'] }]), dump(env, [{ id: 'web', environments: ['development'] }]), ALL);
    expect(step).toMatchObject({ action: 'update', detail: 'on while projects connect it, then off' });
    expect(ops(step!.ops)).toEqual([['POST', '/api/admin/environments/qa/on']]);
    expect(ops(step!.after)).toEqual([['POST', '/api/admin/environments/qa/off']]);
    const [connected] = environmentSteps(source(env, [{ id: 'web', environments: ['qa'] }]), dump(env, [{ id: 'web', environments: ['qa'] }]), ALL);
    expect(connected!.action).toBe('unchanged');
  });

  it('a target without the environment routes: every difference reported as skipped, no request', () => {
    const [step] = environmentSteps(source([{ name: 'qa', type: 'test', sortOrder: 4, enabled: false }]), dump([{ name: 'qa', type: 'staging', sortOrder: 9, enabled: true }]), NONE);
    expect(step).toMatchObject({ action: 'skip', ops: [] });
    expect(step!.detail).toBe('type test here, staging in the target: the target has no environment update; sort order 4 here, 9 in the target: the target cannot change it; off here, on in the target: the target cannot turn an environment on or off');
    expect(step!.after).toBeUndefined();
    const [created] = environmentSteps(source([{ name: 'qa', type: 'test', sortOrder: 4, enabled: false }]), dump([]), NONE);
    expect(created).toMatchObject({ action: 'create', detail: 'type test, sort order 4, off (created on: the target cannot turn an environment off)' });
    expect(created!.after).toBeUndefined();
  });

  it('a protected target environment keeps its type (flagpole refuses to change it); its sort order still moves', () => {
    const [step] = environmentSteps(source([{ name: 'qa', type: 'test', sortOrder: 4, enabled: true }]), dump([{ name: 'qa', type: 'staging', sortOrder: 9, enabled: true, protected: true }]), ALL);
    expect(step).toMatchObject({ action: 'update', detail: 'sort order 9 → 4; not carried: type test here, staging in the target (protected there)' });
    expect(ops(step!.ops)).toEqual([['PUT', '/api/admin/environments/sort-order', { qa: 4 }]]);
  });
});
