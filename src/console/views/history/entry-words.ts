import type { ProjectEvent } from '../../../domain/events.js';
import type { ChangeKind } from '../../../queries/history/history.query.js';
import { CHANGE_REQUEST_TITLES } from '../../../queries/history/change-request-diff.js';

/** What each kind of history entry did, as a heading of its entry. */
const DID: Record<ProjectEvent['type'], string> = {
  'project.created': 'Project created',
  'project.updated': 'Project settings changed',
  'environment.disconnected': 'Environment disconnected',
  ...CHANGE_REQUEST_TITLES,
  'flag.created': 'Flag created',
  'flag.imported': 'Flag imported',
  'flag.updated': 'Flag details changed',
  'flag.archived': 'Flag archived',
  'flag.revived': 'Flag revived',
  'flag.deleted': 'Flag deleted',
  'flag.enabled': 'Switched on',
  'flag.disabled': 'Switched off',
  'strategy.added': 'Strategy added',
  'strategy.updated': 'Strategy changed',
  'strategy.deleted': 'Strategy deleted',
  'strategies.sorted': 'Strategies reordered',
  'variants.updated': 'Variants changed',
  'flag.tagged': 'Tags changed',
  'dependency.added': 'Dependency set',
  'dependencies.removed': 'Dependencies removed',
  'flag.stages-entered': 'Lifecycle stage reached',
  'flag.completed': 'Marked completed',
  'flag.uncompleted': 'Completion undone',
};

/** An entry's heading from its event type (`flag.enabled` → `Switched on`). */
export const entryTitle = (type: ProjectEvent['type']): string => DID[type] ?? type;

/** The names of the kinds of change, for the filter and the entries' badges. */
export const KIND_LABELS: Record<ChangeKind, string> = {
  lifecycle: 'Lifecycle', metadata: 'Details', switch: 'On/off', strategy: 'Strategies', variants: 'Variants', tags: 'Tags',
  dependencies: 'Dependencies', project: 'Project', 'change-request': 'Change requests',
};

/** Who sent a command, in words, given the names of the users: `user:3` → `Ann`, `admin-token:ci` → `admin token "ci"`. */
export function personWords(by: string, users: ReadonlyMap<string, string>): string {
  const name = users.get(by);
  if (name !== undefined) return name;
  if (by === 'system') return 'flagpole (system)';
  const cut = by.indexOf(':');
  if (cut < 0) return by;
  const kind = by.slice(0, cut).replace(/-/g, ' ');
  return `${kind} "${by.slice(cut + 1)}"`;
}
