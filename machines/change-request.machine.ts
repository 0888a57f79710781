/**
 * The statechart of a change request (Unleash Enterprise's, docs/api-decisions.md "Change requests"): `Draft`
 * (initial), `In review`, `Approved`, `Scheduled`, and the closed `Applied`, `Cancelled`, `Rejected`.
 *
 * The rules it decides: a draft is sent to review, discarded or cancelled; an approval in review moves it to
 * `Approved` once enough were given (the event says whether they are); reject in review or scheduled; cancel
 * any open request but a scheduled one; schedule and apply only an approved (or scheduled) request; an edit
 * of a request in review or approved sends it back to review and, as its effect, resets its approvals; a
 * scheduled request is not edited; closed requests accept nothing.
 *
 * @example
 * ```ts
 * import { initialTransition, transition } from 'xstate';
 * const [draft] = initialTransition(changeRequestMachine);
 * const [review] = transition(changeRequestMachine, draft, { type: 'submit' });
 * review.can({ type: 'apply' }); // false: not approved
 * ```
 */
import { setup } from 'xstate';

/**
 * Events understood by {@link changeRequestMachine}. `approve` carries whether the approvals, this one
 * counted, reach the request's required number; `edit` stands for adding, editing or discarding a change.
 */
export type ChangeRequestEvent =
  | { type: 'submit' }
  | { type: 'approve'; enough: boolean }
  | { type: 'reject' }
  | { type: 'cancel' }
  | { type: 'discard' }
  | { type: 'schedule' }
  | { type: 'apply' }
  | { type: 'edit' };

/** The state values of {@link changeRequestMachine}, as Unleash names them. */
export type ChangeRequestStateValue = 'Draft' | 'In review' | 'Approved' | 'Scheduled' | 'Applied' | 'Cancelled' | 'Rejected';

/** Effects a transition asks of the rest of the request (read from the actions `transition()` returns). */
export const CHANGE_REQUEST_EFFECTS = { resetApprovals: 'resetApprovals' } as const;

/** A change request's lifecycle, from a draft to one of the three closed states. */
export const changeRequestMachine = setup({
  types: {
    events: {} as ChangeRequestEvent,
  },
  guards: {
    enoughApprovals: ({ event }) => event.type === 'approve' && event.enough,
  },
  actions: {
    // Pure marker: never executed (transitions are pure), read from the actions `transition()` returns.
    [CHANGE_REQUEST_EFFECTS.resetApprovals]: () => undefined,
  },
}).createMachine({
  id: 'changeRequest',
  initial: 'Draft',
  // Accepted-but-unchanged events target their own state: `snapshot.can()` only counts a transition with a
  // target or an action as accepted.
  states: {
    Draft: {
      on: {
        submit: { target: 'In review' },
        edit: { target: 'Draft' },
        cancel: { target: 'Cancelled' },
        // The domain deletes a discarded draft; the machine says only that a draft may be.
        discard: { target: 'Cancelled' },
      },
    },
    'In review': {
      on: {
        approve: [{ guard: 'enoughApprovals', target: 'Approved' }, { target: 'In review' }],
        reject: { target: 'Rejected' },
        cancel: { target: 'Cancelled' },
        edit: { target: 'In review', actions: CHANGE_REQUEST_EFFECTS.resetApprovals },
      },
    },
    Approved: {
      on: {
        schedule: { target: 'Scheduled' },
        apply: { target: 'Applied' },
        cancel: { target: 'Cancelled' },
        edit: { target: 'In review', actions: CHANGE_REQUEST_EFFECTS.resetApprovals },
      },
    },
    Scheduled: {
      on: {
        // Rescheduling keeps it scheduled.
        schedule: { target: 'Scheduled' },
        apply: { target: 'Applied' },
        reject: { target: 'Rejected' },
      },
    },
    Applied: { type: 'final' },
    Cancelled: { type: 'final' },
    Rejected: { type: 'final' },
  },
});
