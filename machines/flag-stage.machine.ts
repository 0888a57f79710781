/**
 * The statechart of a flag's stage in Unleash's feature lifecycle (docs/api-decisions.md "Feature lifecycle"),
 * beside the flag-lifecycle machine (active / archived), which decides archive and revive and is not changed
 * here. Two regions that move independently:
 *
 * - `usage`: `initial` → `preLive` → `live`, moved only by SDK reports (`seen`). Any report enters pre-live;
 *   a report from a production environment where the flag is on enters live (and pre-live with it when the
 *   flag skipped it, as Unleash 6.10 records both). Usage never moves back.
 * - `completion`: `open` ⇄ `completed`. `complete` marks the flag done (again: accepted, its kept/discarded is
 *   replaced); `uncomplete` reopens it (of an open flag: accepted, nothing changes, as Unleash answers 200).
 *
 * Whether a flag is archived is the flag-lifecycle machine's; the domain asks it first (an archived flag
 * refuses changes) and shows `archived` over every stage here.
 *
 * @example
 * ```ts
 * import { initialTransition, transition } from 'xstate';
 * const [initial] = initialTransition(flagStageMachine);
 * const [seen] = transition(flagStageMachine, initial, { type: 'seen', production: false, enabled: true });
 * seen.value; // { usage: 'preLive', completion: 'open' }
 * ```
 */
import { setup } from 'xstate';

/**
 * Events understood by {@link flagStageMachine}. `seen`: an SDK reported the flag from an environment, of type
 * production or not, where the flag is on or off.
 */
export type FlagStageEvent =
  | { type: 'seen'; production: boolean; enabled: boolean }
  | { type: 'complete' }
  | { type: 'uncomplete' };

/** The states of the `usage` region. */
export type UsageStage = 'initial' | 'preLive' | 'live';

/**
 * Names of the stages a transition enters, as actions: the stepper reports them to the domain, which records
 * when the flag entered each.
 */
export const STAGE_EFFECTS = { enterPreLive: 'enterPreLive', enterLive: 'enterLive' } as const;

/** A flag's usage stage and completion: two parallel regions (see the module comment). */
export const flagStageMachine = setup({
  types: {
    events: {} as FlagStageEvent,
  },
  guards: {
    onInProduction: ({ event }) => event.type === 'seen' && event.production && event.enabled,
  },
  actions: {
    // Pure markers: never executed (transitions are pure), read from the actions `transition()` returns.
    [STAGE_EFFECTS.enterPreLive]: () => undefined,
    [STAGE_EFFECTS.enterLive]: () => undefined,
  },
}).createMachine({
  id: 'flagStage',
  type: 'parallel',
  states: {
    usage: {
      initial: 'initial',
      states: {
        initial: {
          on: {
            seen: [
              { guard: 'onInProduction', target: 'live', actions: [STAGE_EFFECTS.enterPreLive, STAGE_EFFECTS.enterLive] },
              { target: 'preLive', actions: STAGE_EFFECTS.enterPreLive },
            ],
          },
        },
        // A report that enters no new stage is not accepted: there is nothing to record.
        preLive: { on: { seen: { guard: 'onInProduction', target: 'live', actions: STAGE_EFFECTS.enterLive } } },
        live: {},
      },
    },
    completion: {
      initial: 'open',
      // Accepted-but-unchanged events target their own state (see flag-lifecycle.machine.ts).
      states: {
        open: { on: { complete: { target: 'completed' }, uncomplete: { target: 'open' } } },
        completed: { on: { complete: { target: 'completed' }, uncomplete: { target: 'open' } } },
      },
    },
  },
});
