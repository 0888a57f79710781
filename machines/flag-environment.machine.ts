/**
 * The statechart of one flag in one environment: `disabled` (initial) or `enabled`.
 *
 * Invariant (docs/api-decisions.md "Strategies"): enabled implies at least one enabled (not `disabled`) strategy.
 * The machine keeps only the count of enabled strategies; the strategies themselves live in the domain state.
 *
 * @example
 * ```ts
 * import { initialTransition, transition } from 'xstate';
 * const [s0] = initialTransition(flagEnvironmentMachine, { enabledStrategies: 1 });
 * const [s1] = transition(flagEnvironmentMachine, s0, { type: 'enable' }); // s1.value === 'enabled'
 * ```
 */
import { assertEvent, assign, not, setup } from 'xstate';

/** Events understood by {@link flagEnvironmentMachine}. */
export type FlagEnvironmentEvent =
  | { type: 'enable' }
  | { type: 'disable' }
  /** The strategies of this flag and environment changed; carries the new count of enabled strategies. */
  | { type: 'strategies.changed'; enabledStrategies: number }
  /** The flag was revived: every environment starts again disabled, whatever its strategies. */
  | { type: 'reset' };

/** The state values of {@link flagEnvironmentMachine}. */
export type FlagEnvironmentState = 'disabled' | 'enabled';

/** Context of {@link flagEnvironmentMachine}: how many of the environment's strategies are not `disabled`. */
export interface FlagEnvironmentContext {
  enabledStrategies: number;
}

/** Input of {@link flagEnvironmentMachine}; a missing count means a fresh environment without strategies. */
export interface FlagEnvironmentInput {
  enabledStrategies?: number;
}

/**
 * The one predicate every guard of this machine reduces to. Exported so a memo of the machine's results
 * (see `step.ts`) can bucket counts exactly as the guards do, instead of restating `> 0` elsewhere.
 */
export function hasAnyEnabledStrategy(enabledStrategies: number): boolean {
  return enabledStrategies > 0;
}

/** A flag in one environment: `disabled` / `enabled`, guarded by "has an enabled strategy". */
export const flagEnvironmentMachine = setup({
  types: {
    context: {} as FlagEnvironmentContext,
    events: {} as FlagEnvironmentEvent,
    input: {} as FlagEnvironmentInput,
  },
  guards: {
    hasEnabledStrategy: ({ context }) => hasAnyEnabledStrategy(context.enabledStrategies),
  },
  actions: {
    recordEnabledStrategies: assign({
      enabledStrategies: ({ event }) => {
        assertEvent(event, 'strategies.changed');
        return event.enabledStrategies;
      },
    }),
  },
}).createMachine({
  id: 'flagEnvironment',
  context: ({ input }) => ({ enabledStrategies: input?.enabledStrategies ?? 0 }),
  initial: 'disabled',
  // The count is tracked in every state; whether it forces `enabled` off is the `always` below.
  on: {
    'strategies.changed': { actions: 'recordEnabledStrategies' },
    reset: { target: '.disabled' },
  },
  states: {
    disabled: {
      on: {
        enable: { guard: 'hasEnabledStrategy', target: 'enabled' },
        // Idempotent. A transition needs a target (or an action) for `snapshot.can()` to call it
        // accepted; targeting the own state without `reenter` changes nothing.
        disable: { target: 'disabled' },
      },
    },
    enabled: {
      // The invariant itself: `enabled` is never stable without an enabled strategy. Disabling or deleting
      // the last strategy (`strategies.changed` with 0) lands here and falls through to `disabled`.
      always: { guard: not('hasEnabledStrategy'), target: 'disabled' },
      on: {
        enable: { target: 'enabled' },
        disable: { target: 'disabled' },
      },
    },
  },
});
