/**
 * The change-request machine, state by state: every step it takes and every one it refuses, written out by hand
 * (Unleash Enterprise's transitions, docs/api-decisions.md "Change requests"), through the rules the domain asks.
 */
import { describe, expect, it } from 'vitest';
import { initialTransition } from 'xstate';
import { changeRequestMachine } from '../../machines/change-request.machine.js';
import { changeRequestRules, type ChangeRequestEvent, type ChangeRequestStateValue } from '../../machines/change-request-rules.js';

const EVENTS: ChangeRequestEvent[] = [
  { type: 'submit' }, { type: 'approve', enough: false }, { type: 'approve', enough: true }, { type: 'reject' }, { type: 'cancel' },
  { type: 'discard' }, { type: 'schedule' }, { type: 'apply' }, { type: 'edit' },
];

const label = (e: ChangeRequestEvent) => (e.type === 'approve' ? `approve(${e.enough ? 'enough' : 'not enough'})` : e.type);

/** Where each state goes on each event (`-`: refused), `*` marking a step that resets the approvals. */
const EXPECTED: Record<ChangeRequestStateValue, Record<string, string>> = {
  Draft: { submit: 'In review', 'approve(not enough)': '-', 'approve(enough)': '-', reject: '-', cancel: 'Cancelled', discard: 'Cancelled', schedule: '-', apply: '-', edit: 'Draft' },
  'In review': { submit: '-', 'approve(not enough)': 'In review', 'approve(enough)': 'Approved', reject: 'Rejected', cancel: 'Cancelled', discard: '-', schedule: '-', apply: '-', edit: 'In review*' },
  Approved: { submit: '-', 'approve(not enough)': '-', 'approve(enough)': '-', reject: '-', cancel: 'Cancelled', discard: '-', schedule: 'Scheduled', apply: 'Applied', edit: 'In review*' },
  Scheduled: { submit: '-', 'approve(not enough)': '-', 'approve(enough)': '-', reject: 'Rejected', cancel: '-', discard: '-', schedule: 'Scheduled', apply: 'Applied', edit: '-' },
  Applied: Object.fromEntries(EVENTS.map((e) => [label(e), '-'])),
  Cancelled: Object.fromEntries(EVENTS.map((e) => [label(e), '-'])),
  Rejected: Object.fromEntries(EVENTS.map((e) => [label(e), '-'])),
};

describe('change-request machine', () => {
  it('starts as a Draft', () => {
    expect(initialTransition(changeRequestMachine)[0].value).toBe('Draft');
  });

  it.each(Object.keys(EXPECTED) as ChangeRequestStateValue[])('from %s: the steps of Unleash, and nothing else', (state) => {
    const got = Object.fromEntries(EVENTS.map((event) => {
      const step = changeRequestRules.step(state, event);
      return [label(event), step ? `${step.state}${step.resetApprovals ? '*' : ''}` : '-'];
    }));
    expect(got).toEqual(EXPECTED[state]);
  });

  it('knows its closed states', () => {
    expect((Object.keys(EXPECTED) as ChangeRequestStateValue[]).filter((s) => changeRequestRules.isClosed(s))).toEqual(['Applied', 'Cancelled', 'Rejected']);
  });
});
