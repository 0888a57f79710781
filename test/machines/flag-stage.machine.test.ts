/**
 * The flag-stage machine over pure transitions (given events, when one more, then the state and the stages
 * entered), and `stepStage` agreeing with the machine run directly for every state and event it tells apart.
 */
import { describe, expect, it } from 'vitest';
import { initialTransition, transition } from 'xstate';
import { STAGE_EFFECTS, flagStageMachine as machine, type FlagStageEvent } from '../../machines/flag-stage.machine.js';
import { stepStage } from '../../machines/step.js';
import { flagRules } from '../../machines/flag-rules.js';

type StageSnapshot = ReturnType<typeof initialTransition<typeof machine>>[0];

const DEV = { type: 'seen', production: false, enabled: true } as const;
const PROD_ON = { type: 'seen', production: true, enabled: true } as const;
const PROD_OFF = { type: 'seen', production: true, enabled: false } as const;
const COMPLETE = { type: 'complete' } as const;
const UNCOMPLETE = { type: 'uncomplete' } as const;

/** Given: a new flag, then `events` applied in order (each must be accepted). */
function given(...events: FlagStageEvent[]): StageSnapshot {
  let [snapshot] = initialTransition(machine);
  for (const event of events) {
    expect(snapshot.can(event), `given: ${event.type} accepted`).toBe(true);
    [snapshot] = transition(machine, snapshot, event);
  }
  return snapshot;
}

/** When: `event` is sent; then read whether it was accepted, the next value and the stages it entered. */
function when(snapshot: StageSnapshot, event: FlagStageEvent) {
  const accepted = snapshot.can(event);
  const [next, actions] = transition(machine, snapshot, event);
  return { accepted, value: next.value, entered: actions.map((a) => a.type).filter((t) => t in STAGE_EFFECTS) };
}

describe('flag-stage machine', () => {
  it('a new flag is initial and open', () => {
    expect(given().value).toEqual({ usage: 'initial', completion: 'open' });
  });

  it('a report from a non-production environment enters pre-live', () => {
    expect(when(given(), DEV)).toEqual({ accepted: true, value: { usage: 'preLive', completion: 'open' }, entered: ['enterPreLive'] });
  });

  it('a production report of a flag that is on there enters pre-live and live at once', () => {
    expect(when(given(), PROD_ON)).toEqual({ accepted: true, value: { usage: 'live', completion: 'open' }, entered: ['enterPreLive', 'enterLive'] });
    expect(when(given(DEV), PROD_ON)).toEqual({ accepted: true, value: { usage: 'live', completion: 'open' }, entered: ['enterLive'] });
  });

  it('a production report of a flag that is off there enters pre-live only', () => {
    expect(when(given(), PROD_OFF)).toMatchObject({ accepted: true, value: { usage: 'preLive' }, entered: ['enterPreLive'] });
    expect(when(given(DEV), PROD_OFF).accepted).toBe(false);
  });

  it('usage never moves back: a live flag accepts no report', () => {
    expect(when(given(PROD_ON), DEV).accepted).toBe(false);
    expect(when(given(PROD_ON), PROD_ON).accepted).toBe(false);
  });

  it('complete and uncomplete move the completion region and leave usage alone', () => {
    expect(when(given(DEV), COMPLETE)).toEqual({ accepted: true, value: { usage: 'preLive', completion: 'completed' }, entered: [] });
    expect(when(given(DEV, COMPLETE), UNCOMPLETE)).toEqual({ accepted: true, value: { usage: 'preLive', completion: 'open' }, entered: [] });
  });

  it('completing a completed flag and reopening an open one are accepted and change nothing', () => {
    expect(when(given(COMPLETE), COMPLETE)).toMatchObject({ accepted: true, value: { completion: 'completed' } });
    expect(when(given(), UNCOMPLETE)).toMatchObject({ accepted: true, value: { completion: 'open' } });
  });

  it('a completed flag still records its usage, so reopening it shows the stage it reached', () => {
    const reopened = when(given(COMPLETE, PROD_ON), UNCOMPLETE);
    expect(reopened.value).toEqual({ usage: 'live', completion: 'open' });
  });
});

describe('stepStage and flagRules', () => {
  const events: FlagStageEvent[] = [DEV, PROD_ON, PROD_OFF, { type: 'seen', production: false, enabled: false }, COMPLETE, UNCOMPLETE];
  const cases = (['initial', 'preLive', 'live'] as const).flatMap((usage) => [false, true].flatMap((completed) => events.map((event) => ({ usage, completed, event }))));

  it.each(cases)('$usage, completed $completed, $event.type: agrees with the machine run directly', ({ usage, completed, event }) => {
    const snapshot = machine.resolveState({ value: { usage, completion: completed ? 'completed' : 'open' }, context: {} });
    const step = stepStage({ usage, completed }, event);
    if (!snapshot.can(event)) {
      expect(step).toBeNull();
      return;
    }
    const [next, actions] = transition(machine, snapshot, event);
    const value = next.value as { usage: string; completion: string };
    expect(step).toEqual({ value: { usage: value.usage, completed: value.completion === 'completed' }, effects: actions.map((a) => a.type).filter((t) => t in STAGE_EFFECTS) });
  });

  it('flagRules.seen names the stages in Unleash\'s words', () => {
    expect(flagRules.seen({ usage: 'initial', completed: false }, true, true)).toEqual(['pre-live', 'live']);
    expect(flagRules.seen({ usage: 'initial', completed: true }, false, true)).toEqual(['pre-live']);
    expect(flagRules.seen({ usage: 'live', completed: false }, true, true)).toEqual([]);
    expect(flagRules.complete({ usage: 'live', completed: false })).toEqual({ usage: 'live', completed: true });
    expect(flagRules.uncomplete({ usage: 'preLive', completed: true })).toEqual({ usage: 'preLive', completed: false });
  });
});
