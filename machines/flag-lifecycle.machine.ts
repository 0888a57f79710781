/**
 * The statechart of a flag's lifecycle: `active` (initial) or `archived`.
 *
 * An archived flag keeps its data but refuses every change (API-DECISIONS "Flags": 400 `ArchivedFeatureError`),
 * so callers ask `snapshot.can({ type: 'change' })` before a metadata, strategy or variant change.
 *
 * @example
 * ```ts
 * import { initialTransition, transition } from 'xstate';
 * const [active] = initialTransition(flagLifecycleMachine);
 * const [archived] = transition(flagLifecycleMachine, active, { type: 'archive' });
 * archived.can({ type: 'change' }); // false
 * ```
 */
import { setup } from 'xstate';

/** Events understood by {@link flagLifecycleMachine}. `change` stands for any metadata/strategy/variant change. */
export type FlagLifecycleEvent = { type: 'archive' } | { type: 'revive' } | { type: 'change' };

/** The state values of {@link flagLifecycleMachine}. */
export type FlagLifecycleState = 'active' | 'archived';

/** A flag's lifecycle: `active` / `archived`; archive is idempotent, revive only from `archived`. */
export const flagLifecycleMachine = setup({
  types: {
    events: {} as FlagLifecycleEvent,
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
        revive: { target: 'active' },
      },
    },
  },
});
