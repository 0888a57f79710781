/**
 * The statechart of a flag's lifecycle: `active` (initial) or `archived`.
 *
 * The rules it decides (docs/api-decisions.md "Flags"): an archived flag keeps its data but refuses every change
 * (`change` is not accepted there: 400 `ArchivedFeatureError`); archive is idempotent; revive only brings
 * back an archived flag and, as its effect, resets every environment of the flag to disabled; a flag is
 * deleted for good only once archived.
 *
 * @example
 * ```ts
 * import { initialTransition, transition } from 'xstate';
 * const [active] = initialTransition(flagLifecycleMachine);
 * const [archived] = transition(flagLifecycleMachine, active, { type: 'archive' });
 * archived.can({ type: 'change' }); // false
 * archived.can({ type: 'delete' }); // true
 * ```
 */
import { setup } from 'xstate';

/**
 * Events understood by {@link flagLifecycleMachine}. `change` stands for any metadata, strategy, variant or
 * on/off change; `delete` for removing the flag for good (batch delete).
 */
export type FlagLifecycleEvent = { type: 'archive' } | { type: 'revive' } | { type: 'change' } | { type: 'delete' };

/** The state values of {@link flagLifecycleMachine}. */
export type FlagLifecycleState = 'active' | 'archived';

/**
 * Names of the effects a lifecycle transition asks of the rest of the flag. The machine holds no
 * environments itself; it names the effect as an action, and the stepper reports it to the domain, which
 * steps every environment machine with `reset`.
 */
export const LIFECYCLE_EFFECTS = { resetEnvironments: 'resetEnvironments' } as const;

/** A flag's lifecycle: `active` / `archived`; archive is idempotent, revive and delete only from `archived`. */
export const flagLifecycleMachine = setup({
  types: {
    events: {} as FlagLifecycleEvent,
  },
  actions: {
    // Pure marker: never executed (transitions are pure), read from the actions `transition()` returns.
    [LIFECYCLE_EFFECTS.resetEnvironments]: () => undefined,
  },
}).createMachine({
  id: 'flagLifecycle',
  initial: 'active',
  // Accepted-but-unchanged events target their own state: `snapshot.can()` only counts a transition with a
  // target or an action as accepted, and targeting the own state without `reenter` changes nothing.
  states: {
    active: {
      on: {
        archive: { target: 'archived' },
        change: { target: 'active' },
      },
    },
    archived: {
      on: {
        // DELETE of an already archived flag answers 202 too.
        archive: { target: 'archived' },
        revive: { target: 'active', actions: LIFECYCLE_EFFECTS.resetEnvironments },
        // The flag leaves the project; the machine's part is only to allow it.
        delete: { target: 'archived' },
      },
    },
  },
});
