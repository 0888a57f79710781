/**
 * `flagRules`, the domain's questions to the machines, given / when / then over pure steps: each answer is
 * what the statechart itself says (asked through xstate's `transition`), translated and nothing more.
 */
import { describe, expect, test } from 'vitest';
import { initialTransition, transition } from 'xstate';
import { flagEnvironmentMachine, type FlagEnvironmentEvent } from '../../machines/flag-environment.machine.js';
import { LIFECYCLE_EFFECTS, flagLifecycleMachine, type FlagLifecycleEvent } from '../../machines/flag-lifecycle.machine.js';
import { flagRules } from '../../machines/flag-rules.js';

/** Given a flag (archived or not), when `event`: the lifecycle machine's own answer, or null if refused. */
function lifecycle(archived: boolean, event: FlagLifecycleEvent) {
  let [snapshot] = initialTransition(flagLifecycleMachine);
  if (archived) [snapshot] = transition(flagLifecycleMachine, snapshot, { type: 'archive' });
  if (!snapshot.can(event)) return null;
  const [next, actions] = transition(flagLifecycleMachine, snapshot, event);
  return { archived: next.value === 'archived', effects: actions.map((a) => a.type) };
}

/** Given an environment (enabled or not) with `count` enabled strategies, when `event`: the machine's answer. */
function environment(enabled: boolean, count: number, event: FlagEnvironmentEvent) {
  let [snapshot] = initialTransition(flagEnvironmentMachine, { enabledStrategies: Math.max(count, 1) });
  if (enabled) [snapshot] = transition(flagEnvironmentMachine, snapshot, { type: 'enable' });
  if (count === 0) [snapshot] = transition(flagEnvironmentMachine, snapshot, { type: 'strategies.changed', enabledStrategies: 0 });
  if (snapshot.value !== (enabled && count > 0 ? 'enabled' : 'disabled')) throw new Error('an enabled environment needs a strategy');
  if (!snapshot.can(event)) return null;
  return { enabled: transition(flagEnvironmentMachine, snapshot, event)[0].value === 'enabled' };
}

describe('lifecycle questions', () => {
  test.for([false, true])('archived=%s: acceptsChange, archive, revive and canDelete are the machine\'s answers', (archived) => {
    expect(flagRules.acceptsChange(archived)).toBe(lifecycle(archived, { type: 'change' }) !== null);
    const archive = lifecycle(archived, { type: 'archive' });
    expect(flagRules.archive(archived)).toEqual(archive && { archived: archive.archived });
    expect(flagRules.canDelete(archived)).toBe(lifecycle(archived, { type: 'delete' }) !== null);
    const revive = lifecycle(archived, { type: 'revive' });
    expect(flagRules.revive(archived)).toEqual(revive && { archived: revive.archived, resetEnvironments: revive.effects.includes(LIFECYCLE_EFFECTS.resetEnvironments) });
  });

  test('given an active flag: changes accepted, archive archives, revive and delete refused', () => {
    expect(flagRules.acceptsChange(false)).toBe(true);
    expect(flagRules.archive(false)).toEqual({ archived: true });
    expect(flagRules.revive(false)).toBeNull();
    expect(flagRules.canDelete(false)).toBe(false);
  });

  test('given an archived flag: changes refused, archive idempotent, revive resets the environments, delete allowed', () => {
    expect(flagRules.acceptsChange(true)).toBe(false);
    expect(flagRules.archive(true)).toEqual({ archived: true });
    expect(flagRules.revive(true)).toEqual({ archived: false, resetEnvironments: true });
    expect(flagRules.canDelete(true)).toBe(true);
  });
});

describe('environment questions', () => {
  const cases = [false, true].flatMap((enabled) => [0, 1, 3].filter((count) => !enabled || count > 0).map((count) => ({ enabled, count })));

  test.for(cases)('enabled=$enabled with $count enabled strategies: enable, disable and reset are the machine\'s answers', ({ enabled, count }) => {
    expect(flagRules.enable(enabled, count)).toEqual(environment(enabled, count, { type: 'enable' }));
    expect(flagRules.disable(enabled, count)).toEqual(environment(enabled, count, { type: 'disable' }));
    expect(flagRules.reset(enabled, count)).toEqual(environment(enabled, count, { type: 'reset' }));
    for (const after of [0, 1, 2]) {
      expect(flagRules.afterStrategies(enabled, after, count)).toEqual(environment(enabled, count, { type: 'strategies.changed', enabledStrategies: after }));
    }
  });

  test('enable needs an enabled strategy; disable and reset always end disabled', () => {
    expect(flagRules.enable(false, 0)).toBeNull();
    expect(flagRules.enable(false, 1)).toEqual({ enabled: true });
    expect(flagRules.enable(true, 1)).toEqual({ enabled: true });
    expect(flagRules.disable(true, 1)).toEqual({ enabled: false });
    expect(flagRules.disable(false, 0)).toEqual({ enabled: false });
    expect(flagRules.reset(true, 2)).toEqual({ enabled: false });
  });

  test('losing the last enabled strategy disables; a change that leaves one keeps enabled; none ever enables', () => {
    expect(flagRules.afterStrategies(true, 0, 1)).toEqual({ enabled: false });
    expect(flagRules.afterStrategies(true, 1, 2)).toEqual({ enabled: true });
    expect(flagRules.afterStrategies(false, 3, 0)).toEqual({ enabled: false });
  });
});
