import { describe, expect, it } from 'vitest';
import { initialTransition, transition } from 'xstate';
import {
  flagEnvironmentMachine as machine,
  type FlagEnvironmentEvent,
} from '../../machines/flag-environment.machine.js';

type EnvironmentSnapshot = ReturnType<typeof initialTransition<typeof machine>>[0];

/** Given: a fresh environment with `enabledStrategies`, then `events` applied in order (each must be accepted). */
function given(enabledStrategies: number | undefined, ...events: FlagEnvironmentEvent[]): EnvironmentSnapshot {
  const input = enabledStrategies === undefined ? {} : { enabledStrategies };
  let [snapshot] = initialTransition(machine, input);
  for (const event of events) {
    expect(snapshot.can(event), `given: ${event.type} accepted`).toBe(true);
    [snapshot] = transition(machine, snapshot, event);
  }
  return snapshot;
}

/** When: `event` is sent; then-assertions read the returned `accepted` flag and `next` snapshot. */
function when(snapshot: EnvironmentSnapshot, event: FlagEnvironmentEvent) {
  const accepted = snapshot.can(event);
  const [next] = transition(machine, snapshot, event);
  return { accepted, next };
}

const changed = (enabledStrategies: number): FlagEnvironmentEvent => ({ type: 'strategies.changed', enabledStrategies });

describe('flag-environment machine', () => {
  it('starts disabled, counting the strategies from its input (none when absent)', () => {
    expect(given(undefined).value).toBe('disabled');
    expect(given(undefined).context).toEqual({ enabledStrategies: 0 });
    expect(given(2).context).toEqual({ enabledStrategies: 2 });
  });

  it('guard blocks enable when no strategy is enabled', () => {
    const { accepted, next } = when(given(0), { type: 'enable' });
    expect(accepted).toBe(false);
    expect(next.value).toBe('disabled');
  });

  it('enables with one enabled strategy', () => {
    const { accepted, next } = when(given(1), { type: 'enable' });
    expect(accepted).toBe(true);
    expect(next.value).toBe('enabled');
  });

  it('disabling the last strategy (strategies.changed to 0) disables the environment', () => {
    const { accepted, next } = when(given(1, { type: 'enable' }), changed(0));
    expect(accepted).toBe(true);
    expect(next.value).toBe('disabled');
    expect(next.context.enabledStrategies).toBe(0);
  });

  it('stays enabled while some strategy is still enabled', () => {
    const { next } = when(given(2, { type: 'enable' }), changed(1));
    expect(next.value).toBe('enabled');
    expect(next.context.enabledStrategies).toBe(1);
  });

  it('strategies.changed while disabled records the count but never enables', () => {
    const { accepted, next } = when(given(0), changed(3));
    expect(accepted).toBe(true);
    expect(next.value).toBe('disabled');
    expect(next.context.enabledStrategies).toBe(3);
    // The recorded count is what the guard reads afterwards.
    expect(when(next, { type: 'enable' }).next.value).toBe('enabled');
  });

  it('a later strategies.changed to 0 takes back the right to enable', () => {
    const { accepted } = when(given(2, changed(0)), { type: 'enable' });
    expect(accepted).toBe(false);
  });

  it('disable from enabled disables and keeps the count', () => {
    const { accepted, next } = when(given(2, { type: 'enable' }), { type: 'disable' });
    expect(accepted).toBe(true);
    expect(next.value).toBe('disabled');
    expect(next.context.enabledStrategies).toBe(2);
  });

  it('enable while enabled is accepted and changes nothing', () => {
    const before = given(1, { type: 'enable' });
    const { accepted, next } = when(before, { type: 'enable' });
    expect(accepted).toBe(true);
    expect(next.value).toBe('enabled');
    expect(next.context).toEqual(before.context);
  });

  it('disable while disabled is accepted and changes nothing', () => {
    const before = given(1);
    const { accepted, next } = when(before, { type: 'disable' });
    expect(accepted).toBe(true);
    expect(next.value).toBe('disabled');
    expect(next.context).toEqual(before.context);
  });

  it('survives a round trip through persisted plain data', () => {
    const stored = JSON.parse(JSON.stringify(machine.getPersistedSnapshot(given(1, { type: 'enable' }))));
    // No children to respawn, so restoreSnapshot never reads its actor scope.
    const restored = machine.restoreSnapshot(stored, undefined as never);
    expect(restored.value).toBe('enabled');
    expect(when(restored, changed(0)).next.value).toBe('disabled');
  });
});
