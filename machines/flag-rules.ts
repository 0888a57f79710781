/**
 * The questions the domain asks the flag machines, in the domain's words. Every lifecycle and per-environment
 * rule lives in the three statecharts (lifecycle, environment, stage); these functions only step them (through the precomputed table in
 * `step.ts`) and translate the answer. Nothing here restates a rule.
 *
 * @example
 * ```ts
 * flagRules.acceptsChange(true);           // false: archived flags refuse changes
 * flagRules.enable(false, 0);              // null: no enabled strategy
 * flagRules.revive(true);                  // { archived: false, resetEnvironments: true }
 * flagRules.afterStrategies(true, 0);      // { enabled: false }: lost the last enabled strategy
 * flagRules.seen({ usage: 'initial', completed: false }, true, true); // ['pre-live', 'live']
 * ```
 */
import { initialTransition } from 'xstate';
import { flagEnvironmentMachine } from './flag-environment.machine.js';
import { LIFECYCLE_EFFECTS, flagLifecycleMachine } from './flag-lifecycle.machine.js';
import { STAGE_EFFECTS } from './flag-stage.machine.js';
import { lifecycleEffects, stepEnvironment, stepLifecycle, stepStage, type StageValue } from './step.js';

export type { StageValue } from './step.js';

/** A stage an SDK report can enter, in Unleash's words. */
export type SeenStage = 'pre-live' | 'live';

/** The machines' initial states, as stored values: a new flag, and each of its environments. */
const INITIAL = Object.freeze({
  archived: initialTransition(flagLifecycleMachine)[0].matches('archived'),
  enabled: initialTransition(flagEnvironmentMachine, { enabledStrategies: 0 })[0].matches('enabled'),
});

const CHANGE = { type: 'change' } as const;
const ARCHIVE = { type: 'archive' } as const;
const REVIVE = { type: 'revive' } as const;
const DELETE = { type: 'delete' } as const;
const ENABLE = { type: 'enable' } as const;
const DISABLE = { type: 'disable' } as const;
const RESET = { type: 'reset' } as const;
const COMPLETE = { type: 'complete' } as const;
const UNCOMPLETE = { type: 'uncomplete' } as const;
const SEEN_STAGES: Readonly<Record<string, SeenStage>> = { [STAGE_EFFECTS.enterPreLive]: 'pre-live', [STAGE_EFFECTS.enterLive]: 'live' };
const NOTHING_SEEN: readonly SeenStage[] = Object.freeze([]);

/** The answers of the flag-lifecycle and flag-environment machines. */
export const flagRules = {
  /** `archived` of a new flag (a created or cloned one): the lifecycle machine's initial state. */
  newFlag: (): { archived: boolean } => ({ archived: INITIAL.archived }),

  /** `enabled` of a new flag environment: the environment machine's initial state. */
  newEnvironment: (): { enabled: boolean } => ({ enabled: INITIAL.enabled }),

  /** Whether a flag accepts a change to its metadata, strategies, variants or on/off state. */
  acceptsChange: (archived: boolean): boolean => stepLifecycle(archived, CHANGE) !== null,

  /** `archived` after an archive, or null when refused. */
  archive: (archived: boolean) => stepLifecycle(archived, ARCHIVE),

  /** The flag after a revive, or null when the machine refuses it (the flag is not archived). */
  revive(archived: boolean): { archived: boolean; resetEnvironments: boolean } | null {
    const next = stepLifecycle(archived, REVIVE);
    if (next === null) return null;
    return { archived: next.archived, resetEnvironments: lifecycleEffects(archived, REVIVE).includes(LIFECYCLE_EFFECTS.resetEnvironments) };
  },

  /** Whether a flag may be deleted for good. */
  canDelete: (archived: boolean): boolean => stepLifecycle(archived, DELETE) !== null,

  /** `enabled` after `/on` with `enabledStrategies` evaluated strategies, or null when refused. */
  enable: (enabled: boolean, enabledStrategies: number) => stepEnvironment(enabled, enabledStrategies, ENABLE),

  /** `enabled` after `/off`, or null when refused. */
  disable: (enabled: boolean, enabledStrategies: number) => stepEnvironment(enabled, enabledStrategies, DISABLE),

  /** `enabled` of an environment reset by a revive. */
  reset: (enabled: boolean, enabledStrategies: number) => stepEnvironment(enabled, enabledStrategies, RESET),

  /** `enabled` after the environment's strategies changed so that `after` of them are evaluated. */
  afterStrategies: (enabled: boolean, after: number, before = after) =>
    stepEnvironment(enabled, before, { type: 'strategies.changed', enabledStrategies: after }),

  /**
   * The stages an SDK report enters, in order: from an environment of type production (`production`) where
   * the flag is on (`enabled`), or not. Empty when it enters none.
   */
  seen(stage: StageValue, production: boolean, enabled: boolean): readonly SeenStage[] {
    const step = stepStage(stage, { type: 'seen', production, enabled });
    return step === null ? NOTHING_SEEN : step.effects.map((effect) => SEEN_STAGES[effect]!);
  },

  /** The stage after marking the flag completed, or null when refused. */
  complete: (stage: StageValue) => stepStage(stage, COMPLETE)?.value ?? null,

  /** The stage after undoing the completion, or null when refused. */
  uncomplete: (stage: StageValue) => stepStage(stage, UNCOMPLETE)?.value ?? null,
};
