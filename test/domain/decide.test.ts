/**
 * The project's decide function, given / when / then over pure data: the rules behind the flag routes,
 * without HTTP or storage. Refusals carry their error kind and no events.
 */
import { describe, expect, test } from 'vitest';
import type { ProjectCommand } from '../../src/domain/commands.js';
import { decide } from '../../src/domain/decide.js';
import type { Decision } from '../../src/domain/errors.js';
import type { ProjectEvent } from '../../src/domain/events.js';
import { ProjectDraft, evolve, type ProjectState } from '../../src/domain/project-state.js';
import type { Flag, ProjectMeta } from '../../src/domain/types.js';
import { DEFAULT_LIMITS } from '../../src/limits.js';

const META: ProjectMeta = {
  id: 'p', name: 'P', description: '', createdAt: '2025-01-01T00:00:00.000Z',
  environments: ['development', 'production'], defaultStrategies: {}, members: {},
};

/** A draft after `commands`, each of which must be accepted; returns the draft and the next sequence number. */
function given(commands: ProjectCommand[]): { draft: ProjectDraft; seq: number } {
  const draft = new ProjectDraft({ meta: META, flags: new Map(), version: 0 } satisfies ProjectState);
  let seq = 0;
  for (const command of commands) {
    seq += 1;
    const decision = decide(draft, command, { at: `2025-01-01T00:00:${String(seq).padStart(2, '0')}.000Z`, by: 'test', seq, limits: DEFAULT_LIMITS });
    if (!decision.ok) throw new Error(`given ${command.type} was refused: ${decision.error.message}`);
    for (const event of decision.events) evolve(draft, event);
  }
  return { draft, seq: seq + 1 };
}

/** The state the last `when` decided on: `flagAfter` evolves that decision's events onto a copy of it. */
let decidedOn: { draft: ProjectDraft } | null = null;

function when(state: { draft: ProjectDraft; seq: number }, command: ProjectCommand): Decision<ProjectEvent, unknown> {
  decidedOn = state;
  return decide(state.draft, command, { at: '2025-02-01T00:00:00.000Z', by: 'test', seq: state.seq, limits: DEFAULT_LIMITS });
}

/** The flag image after an accepted decision: its events evolved onto a copy of the state it was decided on. */
function flagAfter(decision: Decision<ProjectEvent, unknown>, name: string): Flag {
  if (!decision.ok) throw new Error(decision.error.message);
  const state = decidedOn!;
  const copy = new ProjectDraft({ meta: state.draft.meta, flags: new Map(), version: 0 });
  const base = state.draft.getFlag(name);
  if (base) copy.setFlag(base);
  for (const event of decision.events) evolve(copy, event);
  const flag = copy.getFlag(name);
  if (!flag) throw new Error(`no flag ${name} after the decision`);
  return flag;
}

function expectRefused(decision: Decision<ProjectEvent, unknown>, kind: string): void {
  expect(decision.ok).toBe(false);
  if (!decision.ok) expect(decision.error.kind).toBe(kind);
}

const create = (name: string): ProjectCommand => ({ type: 'flag.create', name, description: '', flagType: 'release', impressionData: false });
const addDefault = (feature: string, environment = 'development', disabled = false): ProjectCommand =>
  ({ type: 'strategy.add', feature, environment, strategy: { name: 'default', disabled } });
const enable = (feature: string, environment = 'development'): ProjectCommand => ({ type: 'flag.enable', feature, environment });

describe('flags', () => {
  test('a created flag has an empty, disabled entry per environment and the command seq as version', () => {
    const state = given([]);
    const flag = flagAfter(when(state, create('a')), 'a');
    expect(flag.environments).toEqual({ development: { enabled: false, strategies: [] }, production: { enabled: false, strategies: [] } });
    expect(flag.version).toBe(state.seq);
  });

  test('a used name is refused, archived included', () => {
    expectRefused(when(given([create('a')]), create('a')), 'NameExistsError');
    expectRefused(when(given([create('a'), { type: 'flag.archive', feature: 'a' }]), create('a')), 'NameExistsError');
  });

  test('If-Match that names another version is refused before anything else', () => {
    const state = given([create('a'), { type: 'flag.archive', feature: 'a' }]);
    expectRefused(when(state, { type: 'flag.update', feature: 'a', ifMatch: 1, description: '', flagType: 'release', stale: false, impressionData: false }), 'PreconditionFailed');
    expectRefused(when(state, { type: 'flag.update', feature: 'a', ifMatch: 'mismatch', description: '', flagType: 'release', stale: false, impressionData: false }), 'PreconditionFailed');
    expectRefused(when(state, { type: 'flag.update', feature: 'a', ifMatch: 2, description: '', flagType: 'release', stale: false, impressionData: false }), 'ArchivedFeatureError');
  });

  test('archiving an archived flag is accepted with no events', () => {
    const decision = when(given([create('a'), { type: 'flag.archive', feature: 'a' }]), { type: 'flag.archive', feature: 'a' });
    expect(decision).toEqual({ ok: true, events: [], reply: { value: null, version: 2 } });
  });

  test('revive disables every environment and keeps strategies; unknown and active names give no events', () => {
    const state = given([create('a'), create('b'), addDefault('a'), enable('a'), { type: 'flag.archive', feature: 'a' }]);
    const decision = when(state, { type: 'flag.revive', features: ['a', 'b', 'ghost', 'a'] });
    expect(decision.ok && decision.events.map((e) => e.type)).toEqual(['flag.revived']);
    const flag = flagAfter(decision, 'a');
    expect(flag).toMatchObject({ archived: false, archivedAt: null });
    expect(flag.environments['development']).toMatchObject({ enabled: false, strategies: [{ name: 'default' }] });
  });

  test('delete-archived deletes only archived flags, each once', () => {
    const state = given([create('a'), create('b'), { type: 'flag.archive', feature: 'a' }]);
    const decision = when(state, { type: 'flag.delete-archived', features: ['a', 'a', 'b', 'ghost'] });
    expect(decision.ok && decision.events.map((e) => [e.type, 'name' in e ? e.name : ''])).toEqual([['flag.deleted', 'a']]);
  });

  test('clone copies strategies with new ids, rewrites a groupId equal to the source name, and is disabled', () => {
    const state = given([
      create('src'),
      { type: 'strategy.add', feature: 'src', environment: 'development', strategy: { name: 'flexibleRollout' } },
      { type: 'strategy.add', feature: 'src', environment: 'development', strategy: { name: 'flexibleRollout', parameters: { groupId: 'other' } } },
      enable('src'),
    ]);
    const source = state.draft.getFlag('src')!;
    const copy = flagAfter(when(state, { type: 'flag.clone', feature: 'src', name: 'dst', replaceGroupId: true }), 'dst');
    const [first, second] = copy.environments['development']!.strategies;
    expect(copy.environments['development']!.enabled).toBe(false);
    expect(first!.parameters['groupId']).toBe('dst');
    expect(second!.parameters['groupId']).toBe('other');
    expect(first!.id).not.toBe(source.environments['development']!.strategies[0]!.id);
    const kept = flagAfter(when(state, { type: 'flag.clone', feature: 'src', name: 'dst', replaceGroupId: false }), 'dst');
    expect(kept.environments['development']!.strategies[0]!.parameters['groupId']).toBe('src');
  });
});

describe('the enabled-implies-an-enabled-strategy invariant', () => {
  test('enable needs an enabled strategy', () => {
    expectRefused(when(given([create('a')]), enable('a')), 'InvalidOperationError');
    expectRefused(when(given([create('a'), addDefault('a', 'development', true)]), enable('a')), 'InvalidOperationError');
    expect(flagAfter(when(given([create('a'), addDefault('a')]), enable('a')), 'a').environments['development']!.enabled).toBe(true);
  });

  test('enable falls back to the default strategy, with the flag name as groupId', () => {
    const state = given([
      { type: 'default-strategy.set', environment: '*', strategy: { name: 'flexibleRollout', parameters: { rollout: '5', groupId: 'x' } } },
      create('a'),
    ]);
    const env = flagAfter(when(state, enable('a', 'production')), 'a').environments['production']!;
    expect(env.enabled).toBe(true);
    expect(env.strategies).toMatchObject([{ name: 'flexibleRollout', parameters: { rollout: '5', groupId: 'a', stickiness: 'default' } }]);
  });

  test('adding a strategy never enables; deleting or disabling the last enabled one disables', () => {
    expect(flagAfter(when(given([create('a')]), addDefault('a')), 'a').environments['development']!.enabled).toBe(false);
    const state = given([create('a'), addDefault('a'), enable('a')]);
    const id = state.draft.getFlag('a')!.environments['development']!.strategies[0]!.id;
    const deleted = flagAfter(when(state, { type: 'strategy.delete', feature: 'a', environment: 'development', strategyId: id }), 'a');
    expect(deleted.environments['development']).toEqual({ enabled: false, strategies: [] });
    const disabled = flagAfter(when(state, { type: 'strategy.update', feature: 'a', environment: 'development', strategyId: id, strategy: { name: 'default', disabled: true } }), 'a');
    expect(disabled.environments['development']!.enabled).toBe(false);
    const patched = flagAfter(when(state, { type: 'strategy.patch', feature: 'a', environment: 'development', strategyId: id, operations: [{ op: 'replace', path: '/disabled', value: true }] }), 'a');
    expect(patched.environments['development']!.enabled).toBe(false);
  });

  test('a change elsewhere in the flag leaves an enabled environment enabled', () => {
    const state = given([create('a'), addDefault('a'), addDefault('a'), enable('a')]);
    const id = state.draft.getFlag('a')!.environments['development']!.strategies[0]!.id;
    const after = flagAfter(when(state, { type: 'strategy.delete', feature: 'a', environment: 'development', strategyId: id }), 'a');
    expect(after.environments['development']!.enabled).toBe(true);
  });
});

describe('variants', () => {
  test('set distributes weights and bumps the version; patch validates its result', () => {
    const state = given([create('a')]);
    const set = when(state, { type: 'variants.set', feature: 'a', variants: [
      { name: 'x', weightType: 'fix', weight: 100, stickiness: 'default', overrides: [] },
      { name: 'y', weightType: 'variable', weight: 0, stickiness: 'default', overrides: [] },
      { name: 'z', weightType: 'variable', weight: 0, stickiness: 'default', overrides: [] },
    ] });
    const flag = flagAfter(set, 'a');
    expect(flag.variants.map((v) => v.weight)).toEqual([100, 450, 450]);
    expect(flag.version).toBe(state.seq);
    expectRefused(when(state, { type: 'variants.patch', feature: 'a', operations: [{ op: 'add', path: '/-', value: { name: 'q', weightType: 'fix', weight: 5 } }] }), 'ValidationError');
  });
});
