/**
 * The question the domain asks the change-request machine, in the domain's words: may a request in this state
 * take this step, and where does it land. The rules live in the statechart (`change-request.machine.ts`); this
 * only steps it and reads the effects. Each (state, event, guard) is computed once, by running the machine, and
 * kept (a handful of cases; requests change rarely, so no table is filled ahead as `step.ts` does).
 *
 * @example
 * ```ts
 * changeRequestRules.step('Draft', { type: 'submit' });                 // { state: 'In review', resetApprovals: false }
 * changeRequestRules.step('Approved', { type: 'edit' });                // { state: 'In review', resetApprovals: true }
 * changeRequestRules.step('In review', { type: 'apply' });              // null: not approved
 * changeRequestRules.step('In review', { type: 'approve', enough: true }); // { state: 'Approved', ... }
 * ```
 */
import { transition } from 'xstate';
import { CHANGE_REQUEST_EFFECTS, changeRequestMachine, type ChangeRequestEvent, type ChangeRequestStateValue } from './change-request.machine.js';

export type { ChangeRequestEvent, ChangeRequestStateValue } from './change-request.machine.js';

/** Where a step lands, and whether it resets the request's approvals. */
export type ChangeRequestStep = Readonly<{ state: ChangeRequestStateValue; resetApprovals: boolean }>;

/** The states in which a request is closed: nothing changes it any more. */
export const CLOSED_STATES: ReadonlySet<ChangeRequestStateValue> = new Set(['Applied', 'Cancelled', 'Rejected']);

const results = new Map<string, ChangeRequestStep | null>();

/** Runs the machine itself: restore the state, ask `can`, take the pure transition and read its effects. */
function run(state: ChangeRequestStateValue, event: ChangeRequestEvent): ChangeRequestStep | null {
  const snapshot = changeRequestMachine.resolveState({ value: state, context: {} });
  if (!snapshot.can(event)) return null;
  const [next, actions] = transition(changeRequestMachine, snapshot, event);
  const resetApprovals = actions.some((action) => action.type === CHANGE_REQUEST_EFFECTS.resetApprovals);
  return Object.freeze({ state: next.value as ChangeRequestStateValue, resetApprovals });
}

/** The answers of the change-request machine. */
export const changeRequestRules = {
  /** The request after `event` in `state`, or null when the machine refuses it. */
  step(state: ChangeRequestStateValue, event: ChangeRequestEvent): ChangeRequestStep | null {
    const key = `${state}|${event.type}|${event.type === 'approve' ? event.enough : '-'}`;
    let result = results.get(key);
    if (result === undefined) {
      result = run(state, event);
      results.set(key, result);
    }
    return result;
  },

  /** Whether a request in `state` is closed (applied, cancelled or rejected). */
  isClosed: (state: ChangeRequestStateValue): boolean => CLOSED_STATES.has(state),
};
