import { describe, expect, it } from 'vitest';
import { initialTransition, transition } from 'xstate';
import { flagLifecycleMachine as machine, type FlagLifecycleEvent } from '../../machines/flag-lifecycle.machine.js';

type LifecycleSnapshot = ReturnType<typeof initialTransition<typeof machine>>[0];

/** Given: a new flag, then `events` applied in order (each must be accepted). */
function given(...events: FlagLifecycleEvent[]): LifecycleSnapshot {
  let [snapshot] = initialTransition(machine);
  for (const event of events) {
    expect(snapshot.can(event), `given: ${event.type} accepted`).toBe(true);
    [snapshot] = transition(machine, snapshot, event);
  }
  return snapshot;
}

/** When: `event` is sent; then-assertions read the returned `accepted` flag and `next` snapshot. */
function when(snapshot: LifecycleSnapshot, event: FlagLifecycleEvent) {
  const accepted = snapshot.can(event);
  const [next] = transition(machine, snapshot, event);
  return { accepted, next };
}

describe('flag-lifecycle machine', () => {
  it('a new flag is active', () => {
    expect(given().value).toBe('active');
  });

  it('an active flag accepts changes and stays active', () => {
    const { accepted, next } = when(given(), { type: 'change' });
    expect(accepted).toBe(true);
    expect(next.value).toBe('active');
  });

  it('archive moves an active flag to archived', () => {
    const { accepted, next } = when(given(), { type: 'archive' });
    expect(accepted).toBe(true);
    expect(next.value).toBe('archived');
  });

  it('an archived flag refuses changes', () => {
    const { accepted, next } = when(given({ type: 'archive' }), { type: 'change' });
    expect(accepted).toBe(false);
    expect(next.value).toBe('archived');
  });

  it('archive is idempotent: archiving an archived flag is accepted and it stays archived', () => {
    const { accepted, next } = when(given({ type: 'archive' }), { type: 'archive' });
    expect(accepted).toBe(true);
    expect(next.value).toBe('archived');
  });

  it('revive brings an archived flag back to active, where it accepts changes again', () => {
    const { accepted, next } = when(given({ type: 'archive' }), { type: 'revive' });
    expect(accepted).toBe(true);
    expect(next.value).toBe('active');
    expect(next.can({ type: 'change' })).toBe(true);
  });

  it('revive is refused for an active flag', () => {
    const { accepted, next } = when(given(), { type: 'revive' });
    expect(accepted).toBe(false);
    expect(next.value).toBe('active');
  });
});
