import { describe, expect, it, vi } from 'vitest';
import { transition } from 'xstate';
import {
  flagEnvironmentMachine,
  flagLifecycleMachine,
  stepEnvironment,
  stepLifecycle,
  type FlagEnvironmentEvent,
  type FlagLifecycleEvent,
} from '../../machines/step.js';

const ENABLE = { type: 'enable' } as const;
const DISABLE = { type: 'disable' } as const;
const changed = (enabledStrategies: number): FlagEnvironmentEvent => ({ type: 'strategies.changed', enabledStrategies });

const STATES = [false, true];
// Several counts per guard bucket, so memo hits are checked against counts they were not computed from.
const COUNTS = [0, 1, 2, 5];
const ENVIRONMENT_EVENTS: FlagEnvironmentEvent[] = [ENABLE, DISABLE, changed(0), changed(1), changed(4)];
const LIFECYCLE_EVENTS: FlagLifecycleEvent[] = [{ type: 'archive' }, { type: 'revive' }, { type: 'change' }];

const environmentCases = STATES.flatMap((enabled) =>
  COUNTS.flatMap((count) => ENVIRONMENT_EVENTS.map((event) => ({ enabled, count, event, name: describeEvent(event) }))),
);
const lifecycleCases = STATES.flatMap((archived) => LIFECYCLE_EVENTS.map((event) => ({ archived, event, name: event.type })));

function describeEvent(event: FlagEnvironmentEvent): string {
  return event.type === 'strategies.changed' ? `strategies.changed(${event.enabledStrategies})` : event.type;
}

/*
 * The oracle runs the machines directly on every call, with no memo, and rehydrates through `resolveState`:
 * a path independent of the steppers' own `restoreSnapshot`, so a mistake in either shows up as a disagreement.
 */
function environmentOracle(enabled: boolean, enabledStrategies: number, event: FlagEnvironmentEvent) {
  const snapshot = flagEnvironmentMachine.resolveState({ value: enabled ? 'enabled' : 'disabled', context: { enabledStrategies } });
  if (!snapshot.can(event)) return null;
  return { enabled: transition(flagEnvironmentMachine, snapshot, event)[0].value === 'enabled' };
}

function lifecycleOracle(archived: boolean, event: FlagLifecycleEvent) {
  const snapshot = flagLifecycleMachine.resolveState({ value: archived ? 'archived' : 'active', context: {} });
  if (!snapshot.can(event)) return null;
  return { archived: transition(flagLifecycleMachine, snapshot, event)[0].value === 'archived' };
}

describe('stepEnvironment', () => {
  it('refuses enable without an enabled strategy', () => {
    expect(stepEnvironment(false, 0, ENABLE)).toBeNull();
  });

  it('enables with one enabled strategy', () => {
    expect(stepEnvironment(false, 1, ENABLE)).toEqual({ enabled: true });
  });

  it('disables when the last enabled strategy goes away', () => {
    expect(stepEnvironment(true, 1, changed(0))).toEqual({ enabled: false });
  });

  it('never enables on strategies.changed', () => {
    expect(stepEnvironment(false, 0, changed(3))).toEqual({ enabled: false });
  });

  it('accepts the idempotent enable and disable without a change', () => {
    expect(stepEnvironment(true, 2, ENABLE)).toEqual({ enabled: true });
    expect(stepEnvironment(false, 0, DISABLE)).toEqual({ enabled: false });
  });

  it('hands out results nobody can alter for the next caller', () => {
    const result = stepEnvironment(false, 1, ENABLE);
    expect(() => {
      (result as { enabled: boolean }).enabled = false;
    }).toThrow(TypeError);
    expect(stepEnvironment(false, 2, ENABLE)).toEqual({ enabled: true });
  });

  it.each(environmentCases)('agrees with the machine: enabled=$enabled count=$count $name', ({ enabled, count, event }) => {
    // Twice: the first call may fill the memo, the second reads it.
    expect(stepEnvironment(enabled, count, event)).toEqual(environmentOracle(enabled, count, event));
    expect(stepEnvironment(enabled, count, event)).toEqual(environmentOracle(enabled, count, event));
  });

  it('agrees with the machine whichever case fills the memo first', async () => {
    vi.resetModules();
    const fresh = await import('../../machines/step.js');
    for (const { enabled, count, event } of [...environmentCases].reverse()) {
      expect(fresh.stepEnvironment(enabled, count, event)).toEqual(environmentOracle(enabled, count, event));
    }
  });
});

describe('stepLifecycle', () => {
  it('archives an active flag, and an archived one again', () => {
    expect(stepLifecycle(false, { type: 'archive' })).toEqual({ archived: true });
    expect(stepLifecycle(true, { type: 'archive' })).toEqual({ archived: true });
  });

  it('revives only an archived flag', () => {
    expect(stepLifecycle(true, { type: 'revive' })).toEqual({ archived: false });
    expect(stepLifecycle(false, { type: 'revive' })).toBeNull();
  });

  it('accepts changes only while active', () => {
    expect(stepLifecycle(false, { type: 'change' })).toEqual({ archived: false });
    expect(stepLifecycle(true, { type: 'change' })).toBeNull();
  });

  it.each(lifecycleCases)('agrees with the machine: archived=$archived $name', ({ archived, event }) => {
    expect(stepLifecycle(archived, event)).toEqual(lifecycleOracle(archived, event));
    expect(stepLifecycle(archived, event)).toEqual(lifecycleOracle(archived, event));
  });
});
