/** The history's words for change-request entries: what each event did, and the diff of an applied request. */
import type { ChangeRequestEventType } from '../../domain/change-request-events.js';
import type { ProjectEvent } from '../../domain/events.js';
import { added, moved, pathOf, removed, words, type FieldChange } from './change-words.js';

/** What an entry of each change-request event says happened, in a few words. */
export const CHANGE_REQUEST_TITLES: Readonly<Record<ChangeRequestEventType, string>> = Object.freeze({
  'change-request.configured': 'Change request settings changed',
  'change-request.created': 'Change request created',
  'change-request.change-added': 'Change added to a change request',
  'change-request.change-edited': 'Change of a change request edited',
  'change-request.change-discarded': 'Change of a change request discarded',
  'change-request.discarded': 'Change request discarded',
  'change-request.title-set': 'Change request renamed',
  'change-request.commented': 'Change request commented',
  'change-request.reviewers-set': 'Change request reviewers set',
  'change-request.sent-to-review': 'Change request sent to review',
  'change-request.approval-added': 'Change request approval added',
  'change-request.approved': 'Change request approved',
  'change-request.rejected': 'Change request rejected',
  'change-request.cancelled': 'Change request cancelled',
  'change-request.scheduled': 'Change request scheduled',
  'change-request.applied': 'Change request applied',
  'change-request.schedule-failed': 'Scheduled change request failed',
  'change-request.schedule-suspended': 'Scheduled change request suspended',
  'change-request.segments-settled': 'Segment changes of a change request made',
});

/** The sides of one entry a diff is made from (see `ChangeSides` of `event-diff.ts`). */
interface Sides {
  type: ProjectEvent['type'];
  feature?: string | null;
  environment: string | null;
  before: unknown;
  after: unknown;
  changeRequest?: { id: number; changes?: Sides[] } | undefined;
}

/** A change of a request (`{action, feature, payload}`) in words: `updateEnabled checkout {"enabled":true}`. */
const changeWords = (change: unknown): string => {
  const c = change as { action?: string; feature?: string | null; payload?: unknown };
  return [c.action, c.feature ?? null, c.payload === undefined ? null : words(c.payload)].filter((x) => x !== null).join(' ');
};

/**
 * The fields one change-request entry moved, in words; an applied request's are the changes it made, each
 * path starting with its flag, diffed by `inner` (the diff of a single event).
 */
export function requestChanges(entry: Sides, inner: (sides: Sides) => FieldChange[]): FieldChange[] {
  const path = `change request #${entry.changeRequest?.id ?? '?'}`;
  switch (entry.type) {
    case 'change-request.applied':
      return (entry.changeRequest?.changes ?? []).flatMap((change) =>
        inner(change).map((f) => ({ ...f, path: pathOf(change.feature, f.path), text: `${pathOf(change.feature, f.text)}` })));
    case 'change-request.change-added':
      return [added(path, changeWords(entry.after))];
    case 'change-request.change-discarded':
      return [removed(path, changeWords(entry.before))];
    case 'change-request.change-edited':
      return [moved(path, changeWords(entry.before), changeWords(entry.after))];
    case 'change-request.configured':
      return [moved(pathOf(entry.environment, 'change requests'), settingWords(entry.before), settingWords(entry.after))];
    default: {
      const before = entry.before as Record<string, unknown> | null;
      const after = entry.after as Record<string, unknown> | null;
      const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
      return [...keys].map((key) => moved(pathOf(path, key), before && key in before ? words(before[key]) : null, after && key in after ? words(after[key]) : null));
    }
  }
}

const settingWords = (side: unknown): string => {
  const s = side as { enabled: boolean; requiredApprovals?: number };
  return s.enabled ? `on (${s.requiredApprovals} approval${s.requiredApprovals === 1 ? '' : 's'})` : 'off';
};
