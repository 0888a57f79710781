/**
 * The project's decide function, given / when / then over pure data: the rules behind the flag routes,
 * without HTTP or storage. Refusals carry their error kind and no events.
 */
import { describe, expect, test } from 'vitest';
import { BY, flagAfter, given } from '../helpers/decider.js';
import { addStrategy, archive, createFlag, enable, update } from '../helpers/project-commands.js';
import {
  defaultStrategySet, flagArchived, flagCreated, flagDeleted, flagEnabled, flagRevived, rollout, strategy, strategyAdded,
} from '../helpers/project-events.js';

const S1 = 'strategy-1';
const S2 = 'strategy-2';

describe('flags', () => {
  test('a created flag has an empty, disabled entry per environment, the command seq as version and its sender as creator', () => {
    const spec = given([]);
    const created = spec.when(createFlag('a')).then([flagCreated('a', undefined, { createdBy: BY })]);
    const flag = flagAfter(created, 'a');
    expect(flag.createdBy).toBe(BY);
    expect(flag.environments).toEqual({ development: { enabled: false, strategies: [] }, production: { enabled: false, strategies: [] } });
    expect(flag.version).toBe(spec.seq);
    created.thenReply({ value: flag, version: spec.seq });
  });

  test('a used name is refused, archived included', () => {
    given([flagCreated('a')]).when(createFlag('a')).then({ error: 'NameExistsError', message: /"a"/ });
    given([flagCreated('a'), flagArchived('a')]).when(createFlag('a')).then({ error: 'NameExistsError' });
  });

  test('If-Match that names another version is refused before anything else', () => {
    // Created at 1, archived at 2: the flag's version is 2.
    const spec = given([flagCreated('a'), flagArchived('a')]);
    spec.when(update('a', 1)).then({ error: 'PreconditionFailed' });
    spec.when(update('a', 'mismatch')).then({ error: 'PreconditionFailed' });
    spec.when(update('a', 2)).then({ error: 'ArchivedFeatureError' });
  });

  test('archiving an archived flag is accepted with no events', () => {
    given([flagCreated('a'), flagArchived('a')]).when(archive('a')).then([]).thenReply({ value: null, version: 2 });
  });

  test('revive disables every environment and keeps strategies; unknown and active names give no events', () => {
    const spec = given([
      flagCreated('a'), flagCreated('b'), strategyAdded('a', 'development', strategy(S1)), flagEnabled('a'), flagArchived('a'),
    ]);
    const revived = spec.when({ type: 'flag.revive', features: ['a', 'b', 'ghost', 'a'] }).then([flagRevived('a')]);
    const flag = flagAfter(revived, 'a');
    expect(flag).toMatchObject({ archived: false, archivedAt: null });
    expect(flag.environments['development']).toMatchObject({ enabled: false, strategies: [{ name: 'default' }] });
  });

  test('delete-archived deletes only archived flags, each once', () => {
    given([flagCreated('a'), flagCreated('b'), flagArchived('a')])
      .when({ type: 'flag.delete-archived', features: ['a', 'a', 'b', 'ghost'] })
      .then([flagDeleted('a')]);
  });

  test('clone copies strategies with new ids, rewrites a groupId equal to the source name, and is disabled', () => {
    const spec = given([
      flagCreated('src'),
      strategyAdded('src', 'development', rollout(S1, 'src')),
      strategyAdded('src', 'development', rollout(S2, 'src', { groupId: 'other' }, 1)),
      flagEnabled('src'),
    ]);
    const copy = flagAfter(spec.when({ type: 'flag.clone', feature: 'src', name: 'dst', replaceGroupId: true }), 'dst');
    const [first, second] = copy.environments['development']!.strategies;
    expect(copy.environments['development']!.enabled).toBe(false);
    expect(first!.parameters['groupId']).toBe('dst');
    expect(second!.parameters['groupId']).toBe('other');
    expect(first!.id).not.toBe(spec.flag('src').environments['development']!.strategies[0]!.id);
    const kept = flagAfter(spec.when({ type: 'flag.clone', feature: 'src', name: 'dst', replaceGroupId: false }), 'dst');
    expect(kept.environments['development']!.strategies[0]!.parameters['groupId']).toBe('src');
  });
});

describe('the enabled-implies-an-enabled-strategy invariant', () => {
  test('enable needs an enabled strategy', () => {
    given([flagCreated('a')]).when(enable('a')).then({ error: 'InvalidOperationError' });
    given([flagCreated('a'), strategyAdded('a', 'development', strategy(S1, { disabled: true }))]).when(enable('a')).then({ error: 'InvalidOperationError' });
    const enabled = given([flagCreated('a'), strategyAdded('a', 'development', strategy(S1))]).when(enable('a')).then([flagEnabled('a')]);
    expect(flagAfter(enabled, 'a').environments['development']!.enabled).toBe(true);
  });

  test('enable falls back to the default strategy, with the flag name as groupId', () => {
    const spec = given([
      defaultStrategySet({ name: 'flexibleRollout', parameters: { rollout: '5', groupId: 'x' } }),
      flagCreated('a'),
    ]);
    const enabled = spec.when(enable('a', 'production'));
    const env = flagAfter(enabled, 'a').environments['production']!;
    expect(env.enabled).toBe(true);
    expect(env.strategies).toMatchObject([{ name: 'flexibleRollout', parameters: { rollout: '5', groupId: 'a', stickiness: 'default' } }]);
    enabled.then([flagEnabled('a', 'production', env.strategies[0]!)]);
  });

  test('adding a strategy never enables; deleting or disabling the last enabled one disables', () => {
    expect(flagAfter(given([flagCreated('a')]).when(addStrategy('a')), 'a').environments['development']!.enabled).toBe(false);
    const spec = given([flagCreated('a'), strategyAdded('a', 'development', strategy(S1)), flagEnabled('a')]);
    const deleted = flagAfter(spec.when({ type: 'strategy.delete', feature: 'a', environment: 'development', strategyId: S1 }), 'a');
    expect(deleted.environments['development']).toEqual({ enabled: false, strategies: [] });
    const disabled = flagAfter(spec.when({ type: 'strategy.update', feature: 'a', environment: 'development', strategyId: S1, strategy: { name: 'default', disabled: true } }), 'a');
    expect(disabled.environments['development']!.enabled).toBe(false);
    const patched = flagAfter(spec.when({ type: 'strategy.patch', feature: 'a', environment: 'development', strategyId: S1, operations: [{ op: 'replace', path: '/disabled', value: true }] }), 'a');
    expect(patched.environments['development']!.enabled).toBe(false);
  });

  test('a change elsewhere in the flag leaves an enabled environment enabled', () => {
    const spec = given([
      flagCreated('a'), strategyAdded('a', 'development', strategy(S1)), strategyAdded('a', 'development', strategy(S2, { sortOrder: 1 })), flagEnabled('a'),
    ]);
    const after = flagAfter(spec.when({ type: 'strategy.delete', feature: 'a', environment: 'development', strategyId: S1 }), 'a');
    expect(after.environments['development']!.enabled).toBe(true);
  });
});

describe('variants', () => {
  test('set distributes weights and bumps the version; patch validates its result', () => {
    const spec = given([flagCreated('a')]);
    const set = spec.when({ type: 'variants.set', feature: 'a', variants: [
      { name: 'x', weightType: 'fix', weight: 100, stickiness: 'default', overrides: [] },
      { name: 'y', weightType: 'variable', weight: 0, stickiness: 'default', overrides: [] },
      { name: 'z', weightType: 'variable', weight: 0, stickiness: 'default', overrides: [] },
    ] });
    const flag = flagAfter(set, 'a');
    expect(flag.variants.map((v) => v.weight)).toEqual([100, 450, 450]);
    expect(flag.version).toBe(spec.seq);
    spec.when({ type: 'variants.patch', feature: 'a', operations: [{ op: 'add', path: '/-', value: { name: 'q', weightType: 'fix', weight: 5 } }] }).then({ error: 'ValidationError' });
  });
});
