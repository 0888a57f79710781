/**
 * The lifecycle and on/off rules of the domain are the machines' answers: each case is decided by the
 * project decider (given / when / then) and the statechart that names the rule is asked the same question
 * directly, through xstate's pure `transition`, so the two cannot drift apart unnoticed.
 */
import { describe, expect, test } from 'vitest';
import { initialTransition, transition } from 'xstate';
import { flagEnvironmentMachine } from '../../machines/flag-environment.machine.js';
import { LIFECYCLE_EFFECTS, flagLifecycleMachine, type FlagLifecycleEvent } from '../../machines/flag-lifecycle.machine.js';
import type { ProjectCommand } from '../../src/domain/commands.js';
import { flagAfter, given } from '../helpers/decider.js';
import { addStrategy, archive, disable, enable, update } from '../helpers/project-commands.js';
import {
  flagArchived, flagCreated, flagDeleted, flagDisabled, flagEnabled, flagRevived, META, rollout, strategy, strategyAdded,
} from '../helpers/project-events.js';

/** The lifecycle machine, asked directly: does a flag (archived or not) accept `event`, and with which effects? */
function lifecycle(archived: boolean, event: FlagLifecycleEvent) {
  let [snapshot] = initialTransition(flagLifecycleMachine);
  if (archived) [snapshot] = transition(flagLifecycleMachine, snapshot, { type: 'archive' });
  const [next, actions] = transition(flagLifecycleMachine, snapshot, event);
  return { accepted: snapshot.can(event), archived: next.value === 'archived', effects: actions.map((a) => a.type) };
}

/** The environment machine, asked directly: `enabled` after `enable` with `enabledStrategies`, or null if refused. */
function environmentEnable(enabledStrategies: number): boolean | null {
  const [snapshot] = initialTransition(flagEnvironmentMachine, { enabledStrategies });
  if (!snapshot.can({ type: 'enable' })) return null;
  return transition(flagEnvironmentMachine, snapshot, { type: 'enable' })[0].value === 'enabled';
}

/** The environment machine, asked directly: enabled with `before` strategies, `enabled` after they become `after`. */
function environmentAfterStrategies(before: number, after: number): boolean {
  const [disabled] = initialTransition(flagEnvironmentMachine, { enabledStrategies: before });
  const [enabled] = transition(flagEnvironmentMachine, disabled, { type: 'enable' });
  return transition(flagEnvironmentMachine, enabled, { type: 'strategies.changed', enabledStrategies: after })[0].value === 'enabled';
}

const S1 = 'strategy-1';
const S2 = 'strategy-2';
const S3 = 'strategy-3';

/** Flag `a`, on in both environments with a strategy each (and a disabled one in production), then archived. */
const ARCHIVED_AND_ON = [
  flagCreated('a'),
  strategyAdded('a', 'development', strategy(S1)),
  strategyAdded('a', 'production', rollout(S2, 'a')),
  strategyAdded('a', 'production', strategy(S3, { disabled: true, sortOrder: 1 })),
  flagEnabled('a', 'development'),
  flagEnabled('a', 'production'),
  flagArchived('a'),
];

describe('the lifecycle machine decides', () => {
  test('revive resets every environment to disabled and keeps every strategy', () => {
    expect(lifecycle(true, { type: 'revive' })).toEqual({ accepted: true, archived: false, effects: [LIFECYCLE_EFFECTS.resetEnvironments] });
    const spec = given(ARCHIVED_AND_ON);
    const before = spec.flag('a');
    expect(Object.values(before.environments).map((e) => e.enabled)).toEqual([true, true]);
    const revived = flagAfter(spec.when({ type: 'flag.revive', features: ['a'] }).then([flagRevived('a')]), 'a');
    expect(revived).toMatchObject({ archived: false, archivedAt: null });
    for (const env of ['development', 'production']) {
      expect(revived.environments[env]).toEqual({ enabled: false, strategies: before.environments[env]!.strategies });
    }
  });

  test('revive of an active flag is refused by the machine, so the domain records nothing', () => {
    expect(lifecycle(false, { type: 'revive' }).accepted).toBe(false);
    given([flagCreated('a'), strategyAdded('a', 'development', strategy(S1)), flagEnabled('a')])
      .when({ type: 'flag.revive', features: ['a'] }).then([]);
  });

  test('flag.delete-archived emits flag.deleted only for archived flags', () => {
    expect(lifecycle(false, { type: 'delete' }).accepted).toBe(false);
    expect(lifecycle(true, { type: 'delete' }).accepted).toBe(true);
    const spec = given([flagCreated('active'), flagCreated('archived'), flagArchived('archived')]);
    const deleted = spec.when({ type: 'flag.delete-archived', features: ['active', 'archived'] }).then([flagDeleted('archived', spec.flag('archived'))]);
    expect(deleted.draft.getFlag('archived')).toBeUndefined();
    expect(deleted.draft.getFlag('active')).toEqual(spec.flag('active'));
    spec.when({ type: 'flag.delete-archived', features: ['active'] }).then([]);
  });

  test('archive is idempotent: archiving an archived flag records nothing', () => {
    expect(lifecycle(true, { type: 'archive' })).toMatchObject({ accepted: true, archived: true });
    given([flagCreated('a')]).when(archive('a')).then([flagArchived('a')]);
    given([flagCreated('a'), flagArchived('a')]).when(archive('a')).then([]);
  });

  const changes: [string, ProjectCommand][] = [
    ['flag.update', update('a')],
    ['flag.patch', { type: 'flag.patch', feature: 'a', operations: [{ op: 'replace', path: '/description', value: 'x' }] }],
    ['flag.clone', { type: 'flag.clone', feature: 'a', name: 'b', replaceGroupId: true }],
    ['strategy.add', addStrategy('a')],
    ['strategy.update', { type: 'strategy.update', feature: 'a', environment: 'development', strategyId: S1, strategy: { name: 'default' } }],
    ['strategy.patch', { type: 'strategy.patch', feature: 'a', environment: 'development', strategyId: S1, operations: [{ op: 'replace', path: '/title', value: 't' }] }],
    ['strategy.delete', { type: 'strategy.delete', feature: 'a', environment: 'development', strategyId: S1 }],
    ['flag.enable', enable('a')],
    ['flag.disable', disable('a')],
    ['variants.set', { type: 'variants.set', feature: 'a', variants: [] }],
    ['variants.patch', { type: 'variants.patch', feature: 'a', operations: [{ op: 'add', path: '/-', value: { name: 'v', weightType: 'variable', weight: 0 } }] }],
  ];

  test.for(changes)('an archived flag refuses %s with ArchivedFeatureError; an active one accepts it', ([_type, command]) => {
    expect(lifecycle(true, { type: 'change' }).accepted).toBe(false);
    expect(lifecycle(false, { type: 'change' }).accepted).toBe(true);
    given(ARCHIVED_AND_ON).when(command).then({ error: 'ArchivedFeatureError', message: /archived/ });
    const active = given(ARCHIVED_AND_ON.slice(0, -1)).when(command);
    expect(active.decision.ok, JSON.stringify(active.decision)).toBe(true);
  });
});

describe('the environment machine decides', () => {
  test('/on without an enabled strategy and without a default strategy is refused with InvalidOperationError', () => {
    expect(environmentEnable(0)).toBeNull();
    expect(environmentEnable(1)).toBe(true);
    given([flagCreated('a')]).when(enable('a')).then({ error: 'InvalidOperationError', message: /no enabled strategy/ });
    given([flagCreated('a'), strategyAdded('a', 'development', strategy(S1, { disabled: true }))]).when(enable('a')).then({ error: 'InvalidOperationError' });
    given([flagCreated('a'), strategyAdded('a', 'development', strategy(S1))]).when(enable('a')).then([flagEnabled('a')]);
  });

  test('/on with the console\'s offer taken adds a 100% rollout only where nothing would serve the flag and no default strategy is set', () => {
    const offer = { ...enable('a'), rolloutWithoutDefault: true };
    const added = { ...rollout(expect.any(String) as unknown as string, 'a'), sortOrder: 0 };
    given([flagCreated('a')]).when(offer).then([flagEnabled('a', 'development', added)]);
    // An enabled strategy serves it: nothing is added; a disabled one does not.
    given([flagCreated('a'), strategyAdded('a', 'development', strategy(S1))]).when(offer).then([flagEnabled('a')]);
    given([flagCreated('a'), strategyAdded('a', 'development', strategy(S1, { disabled: true }))]).when(offer)
      .then([flagEnabled('a', 'development', { ...rollout(expect.any(String) as unknown as string, 'a'), sortOrder: 1 })]);
    // The project's default strategy comes first; without the offer, still 409.
    const withDefault = given([flagCreated('a'), { type: 'project.updated', meta: { ...META, defaultStrategies: { development: { name: 'default', title: 'Everyone' } } }, before: META }]);
    withDefault.when(offer).then([flagEnabled('a', 'development', { ...strategy(expect.any(String) as unknown as string, { title: 'Everyone' }) })]);
    given([flagCreated('a')]).when(enable('a')).then({ error: 'InvalidOperationError', message: /no enabled strategy/ });
    // A version that moved meanwhile refuses it whole.
    given([flagCreated('a')]).when({ ...offer, ifMatch: 'mismatch' }).then({ error: 'PreconditionFailed' });
  });

  test('/on of an enabled environment and /off of a disabled one record nothing', () => {
    const on = [flagCreated('a'), strategyAdded('a', 'development', strategy(S1)), flagEnabled('a')];
    given(on).when(enable('a')).then([]).thenReply({ value: null, version: 3 });
    given([flagCreated('a')]).when(disable('a')).then([]);
    given(on).when(disable('a')).then([flagDisabled('a')]);
  });

  test('deleting the last enabled strategy disables the environment; the event carries the machine\'s answer', () => {
    expect(environmentAfterStrategies(1, 0)).toBe(false);
    const spec = given([flagCreated('a'), strategyAdded('a', 'development', strategy(S1)), flagEnabled('a')]);
    spec.when({ type: 'strategy.delete', feature: 'a', environment: 'development', strategyId: S1 })
      .then([{ type: 'strategy.deleted', name: 'a', version: 0, environment: 'development', before: strategy(S1), enabled: false }]);
  });

  test('disabling the last enabled strategy (update or patch) disables the environment', () => {
    const spec = given([flagCreated('a'), strategyAdded('a', 'development', strategy(S1)), flagEnabled('a')]);
    const disabled = strategy(S1, { disabled: true });
    spec.when({ type: 'strategy.update', feature: 'a', environment: 'development', strategyId: S1, strategy: { name: 'default', disabled: true } })
      .then([{ type: 'strategy.updated', name: 'a', version: 0, environment: 'development', strategy: disabled, before: strategy(S1), enabled: false }]);
    spec.when({ type: 'strategy.patch', feature: 'a', environment: 'development', strategyId: S1, operations: [{ op: 'replace', path: '/disabled', value: true }] })
      .then([{ type: 'strategy.updated', name: 'a', version: 0, environment: 'development', strategy: disabled, before: strategy(S1), enabled: false }]);
  });

  test('losing one of two enabled strategies keeps the environment enabled', () => {
    expect(environmentAfterStrategies(2, 1)).toBe(true);
    const spec = given([
      flagCreated('a'), strategyAdded('a', 'development', strategy(S1)), strategyAdded('a', 'development', strategy(S2, { sortOrder: 1 })), flagEnabled('a'),
    ]);
    spec.when({ type: 'strategy.delete', feature: 'a', environment: 'development', strategyId: S1 })
      .then([{ type: 'strategy.deleted', name: 'a', version: 0, environment: 'development', before: strategy(S1), enabled: true }]);
  });

  test('adding a strategy never enables: the machine only records the count', () => {
    const [disabled] = initialTransition(flagEnvironmentMachine, { enabledStrategies: 0 });
    expect(transition(flagEnvironmentMachine, disabled, { type: 'strategies.changed', enabledStrategies: 1 })[0].value).toBe('disabled');
    const added = given([flagCreated('a')]).when(addStrategy('a'));
    expect(added.decision).toMatchObject({ ok: true, events: [{ type: 'strategy.added', enabled: false }] });
    expect(flagAfter(added, 'a').environments['development']!.enabled).toBe(false);
  });
});
