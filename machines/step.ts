/**
 * Pure steppers over the flag machines, for the hot path (flag toggles at thousands per second).
 *
 * No live actors are kept: a flag stores its machine state as plain data (`enabled`, `archived`) next to a
 * machine version. A step rebuilds the snapshot from that data, asks the machine whether it accepts the event
 * (`snapshot.can`) and, if so, takes xstate's pure `transition()`. Results are memoized (see below), so a
 * step is a map lookup once each (state, guard outcome, event type) has been seen.
 *
 * @example
 * ```ts
 * stepEnvironment(false, 0, { type: 'enable' });                              // null: no enabled strategy
 * stepEnvironment(false, 1, { type: 'enable' });                              // { enabled: true }
 * stepEnvironment(true, 1, { type: 'strategies.changed', enabledStrategies: 0 }); // { enabled: false }
 * stepLifecycle(true, { type: 'change' });                                    // null: archived flags refuse changes
 * ```
 */
import { transition, type Snapshot } from 'xstate';
import {
  flagEnvironmentMachine,
  hasAnyEnabledStrategy,
  type FlagEnvironmentEvent,
} from './flag-environment.machine.js';
import { LIFECYCLE_EFFECTS, flagLifecycleMachine, type FlagLifecycleEvent } from './flag-lifecycle.machine.js';
import { STAGE_EFFECTS, flagStageMachine, type FlagStageEvent, type UsageStage } from './flag-stage.machine.js';

export { flagEnvironmentMachine, flagLifecycleMachine, flagStageMachine };
export type { FlagEnvironmentEvent, FlagLifecycleEvent, FlagStageEvent, UsageStage };

export { FLAG_ENVIRONMENT_MACHINE_VERSION, FLAG_LIFECYCLE_MACHINE_VERSION } from './versions.js';

/** Next value of a flag in one environment, or `null` when the machine refuses the event. */
export function stepEnvironment(
  enabled: boolean,
  enabledStrategies: number,
  event: FlagEnvironmentEvent,
): { enabled: boolean } | null {
  // The guards read the count only through `hasAnyEnabledStrategy`: of the context before the event, and of
  // the event's own count after it. So these three facts plus the event type decide the result.
  const after = event.type === 'strategies.changed' ? hasAnyEnabledStrategy(event.enabledStrategies) : '-';
  const key = `${enabled}|${hasAnyEnabledStrategy(enabledStrategies)}|${event.type}|${after}`;
  let result = environmentResults.get(key);
  if (result === undefined) {
    result = runEnvironment(enabled, enabledStrategies, event);
    environmentResults.set(key, result);
  }
  return result;
}

/** Next value of a flag's lifecycle, or `null` when the machine refuses the event. */
export function stepLifecycle(archived: boolean, event: FlagLifecycleEvent): { archived: boolean } | null {
  const result = lifecycleStep(archived, event);
  return result === null ? null : result.value;
}

/**
 * The effects (action names, see `LIFECYCLE_EFFECTS`) the lifecycle machine's transition asks of the rest of
 * the flag; empty when the event is refused or has none.
 */
export function lifecycleEffects(archived: boolean, event: FlagLifecycleEvent): readonly string[] {
  return lifecycleStep(archived, event)?.effects ?? NO_EFFECTS;
}

/** A flag's values in the flag-stage machine: its usage stage and whether it is completed. */
export interface StageValue {
  usage: UsageStage;
  completed: boolean;
}

/** The flag-stage machine's answer: the next value and the stages entered (`STAGE_EFFECTS`), or null when refused. */
export type StageStep = Readonly<{ value: Readonly<StageValue>; effects: readonly string[] }>;

/** Next value of a flag in the flag-stage machine, with the stages it enters; `null` when the machine refuses the event. */
export function stepStage(value: StageValue, event: FlagStageEvent): StageStep | null {
  // The guard reads only `production && enabled` of a `seen`: with the state and the event type, that decides the result.
  const guard = event.type === 'seen' ? event.production && event.enabled : '-';
  const key = `${value.usage}|${value.completed}|${event.type}|${guard}`;
  let result = stageResults.get(key);
  if (result === undefined) {
    result = runStage(value, event);
    stageResults.set(key, result);
  }
  return result;
}

function lifecycleStep(archived: boolean, event: FlagLifecycleEvent): LifecycleStep | null {
  // The lifecycle machine has no context: the state and the event type decide the result.
  const key = `${archived}|${event.type}`;
  let result = lifecycleResults.get(key);
  if (result === undefined) {
    result = runLifecycle(archived, event);
    lifecycleResults.set(key, result);
  }
  return result;
}

/*
 * Hand-kept for speed: docs/performance.md "Machine step memo". The machines are finite and deterministic, so
 * each result is computed once, by running the machine, and reused; the memos sit beside the machine definitions
 * they were filled from, so the machine version is implicit in them. `null` (refused) is cached too; `undefined`:
 * not computed yet.
 */
const environmentResults = new Map<string, EnvironmentResult | null>();
const lifecycleResults = new Map<string, LifecycleStep | null>();
const stageResults = new Map<string, StageStep | null>();

// Results are shared between callers through the memo, so they are frozen: nobody can alter a cached answer.
type EnvironmentResult = Readonly<{ enabled: boolean }>;
type LifecycleResult = Readonly<{ archived: boolean }>;
type LifecycleStep = Readonly<{ value: LifecycleResult; effects: readonly string[] }>;
const NO_EFFECTS: readonly string[] = Object.freeze([]);
const KNOWN_EFFECTS = new Set<string>(Object.values(LIFECYCLE_EFFECTS));
const KNOWN_STAGE_EFFECTS = new Set<string>(Object.values(STAGE_EFFECTS));
const ENABLED: EnvironmentResult = Object.freeze({ enabled: true });
const DISABLED: EnvironmentResult = Object.freeze({ enabled: false });
const ARCHIVED: LifecycleResult = Object.freeze({ archived: true });
const ACTIVE: LifecycleResult = Object.freeze({ archived: false });

/** Runs the environment machine itself: restore, ask `can`, take the pure transition. */
function runEnvironment(enabled: boolean, enabledStrategies: number, event: FlagEnvironmentEvent): EnvironmentResult | null {
  const snapshot = flagEnvironmentMachine.restoreSnapshot(
    persisted(enabled ? 'enabled' : 'disabled', { enabledStrategies }),
    NO_CHILDREN_SCOPE,
  );
  if (!snapshot.can(event)) return null;
  const [next] = transition(flagEnvironmentMachine, snapshot, event);
  return next.matches('enabled') ? ENABLED : DISABLED;
}

/** Runs the lifecycle machine itself: restore, ask `can`, take the pure transition and read its effects. */
function runLifecycle(archived: boolean, event: FlagLifecycleEvent): LifecycleStep | null {
  const snapshot = flagLifecycleMachine.restoreSnapshot(persisted(archived ? 'archived' : 'active', {}), NO_CHILDREN_SCOPE);
  if (!snapshot.can(event)) return null;
  const [next, actions] = transition(flagLifecycleMachine, snapshot, event);
  const effects = Object.freeze(actions.map((action) => action.type).filter((type) => KNOWN_EFFECTS.has(type)));
  return Object.freeze({ value: next.matches('archived') ? ARCHIVED : ACTIVE, effects: effects.length > 0 ? effects : NO_EFFECTS });
}

/** Runs the flag-stage machine itself: restore both regions, ask `can`, take the pure transition and read the stages it enters. */
function runStage(value: StageValue, event: FlagStageEvent): StageStep | null {
  const snapshot = flagStageMachine.restoreSnapshot(
    persisted({ usage: value.usage, completion: value.completed ? 'completed' : 'open' }, {}),
    NO_CHILDREN_SCOPE,
  );
  if (!snapshot.can(event)) return null;
  const [next, actions] = transition(flagStageMachine, snapshot, event);
  const effects = Object.freeze(actions.map((action) => action.type).filter((type) => KNOWN_STAGE_EFFECTS.has(type)));
  const usage = (['live', 'preLive', 'initial'] as const).find((stage) => next.matches({ usage: stage }))!;
  return Object.freeze({ value: Object.freeze({ usage, completed: next.matches({ completion: 'completed' }) }), effects: effects.length > 0 ? effects : NO_EFFECTS });
}

/**
 * The shape `getPersistedSnapshot` produces for these machines. `children` must be present (restoreSnapshot
 * walks its keys); `historyValue` is empty because neither machine has history states.
 */
function persisted(value: string | Record<string, string>, context: object): Snapshot<unknown> {
  const snapshot = { status: 'active' as const, output: undefined, error: undefined, value, context, children: {}, historyValue: {} };
  return snapshot;
}

/**
 * `restoreSnapshot` reads its actor scope only to respawn persisted children (as children of `scope.self`).
 * These machines never have children and `persisted()` always passes `children: {}`, so the scope is never read.
 */
const NO_CHILDREN_SCOPE = undefined as never;

/*
 * The table, filled once at load by running the machines over every case they can tell apart: each state, each
 * guard outcome (a count of 0 or 1) and each event type. After this every step is a lookup; nothing in the
 * hot path runs xstate.
 */
for (const enabled of [false, true]) {
  for (const count of [0, 1]) {
    for (const event of [{ type: 'enable' }, { type: 'disable' }, { type: 'reset' }, { type: 'strategies.changed', enabledStrategies: 0 }, { type: 'strategies.changed', enabledStrategies: 1 }] as FlagEnvironmentEvent[]) {
      stepEnvironment(enabled, count, event);
    }
  }
}
for (const archived of [false, true]) {
  for (const type of ['archive', 'revive', 'change', 'delete'] as const) lifecycleStep(archived, { type });
}
for (const usage of ['initial', 'preLive', 'live'] as const) {
  for (const completed of [false, true]) {
    for (const event of [{ type: 'seen', production: false, enabled: false }, { type: 'seen', production: true, enabled: true }, { type: 'complete' }, { type: 'uncomplete' }] as FlagStageEvent[]) {
      stepStage({ usage, completed }, event);
    }
  }
}
