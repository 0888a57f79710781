import type { Cmd, ProjectCommand, ProjectCommandType, ProjectReplies } from './commands.js';
import type { ProjectContext } from './context.js';
import { accept, fail, refuse, type Decision } from './errors.js';
import type { ProjectEvent } from './events.js';
import type { ProjectDraft } from './project-state.js';
import { decideArchive, decideClone, decideCreate, decideDeleteArchived, decidePatch, decideRevive, decideUpdate } from './decide/flags.js';
import {
  decideAddMember, decideChangeMember, decideConnect, decideDeleteProject, decideDisconnect, decidePurgeMember, decideRelease, decideRemoveMember, decideUpdateProject,
} from './decide/project.js';
import { decideAddStrategy, decideDeleteStrategy, decidePatchStrategy, decideUpdateStrategy } from './decide/strategies.js';
import { decideSetSortOrder } from './decide/strategy-order.js';
import { decideCopyStrategies } from './decide/strategy-copy.js';
import { decideArchiveMany, decideStaleMany, decideToggleMany } from './decide/bulk.js';
import { decideDefaultStrategy, decideDisable, decideEnable } from './decide/toggles.js';
import { decidePatchVariants, decideSetVariants } from './decide/variants.js';
import { decideAddDependency, decideRemoveDependency } from './decide/dependencies.js';
import { decideChangeTags, decideDropTagType } from './decide/tags.js';
import { decideImport, decideSettleImport } from './decide/import.js';
import { decideComplete, decideNoteSeen, decideUncomplete } from './decide/lifecycle.js';
import { changeRequestGuard } from './decide/change-request-guard.js';
import {
  decideAddChanges, decideComment, decideConfigure, decideDiscard, decideDiscardChange, decideEditChange, decideSetReviewers, decideSetTitle,
} from './decide/change-request-drafts.js';
import { decideTransition } from './decide/change-request-states.js';
import { decideApply, decideSettleSegments } from './decide/change-request-apply.js';
import { decideSchedulerDeleted, withSuspendedSchedules } from './decide/change-request-suspend.js';

/** One decider per command type, each typed by its command and its reply. */
type Deciders = { [K in ProjectCommandType]: (draft: ProjectDraft, command: Cmd<K>, context: ProjectContext) => Decision<ProjectEvent, ProjectReplies[K]> };

const DECIDERS: Deciders = {
  // Only as the project's first record: another node that created the same id first wins.
  'project.create': (_draft, command, context) => (context.seq > 1
    ? refuse(fail('NameExistsError', `A project with id "${command.meta.id}" already exists`))
    : accept([{ type: 'project.created', meta: command.meta }], command.meta)),
  'project.update': decideUpdateProject,
  'project.delete': decideDeleteProject,
  'flag.create': decideCreate,
  'flag.update': decideUpdate,
  'flag.patch': decidePatch,
  'flag.archive': decideArchive,
  'flag.revive': decideRevive,
  'flag.delete-archived': decideDeleteArchived,
  'flag.complete': decideComplete,
  'flag.uncomplete': decideUncomplete,
  'flags.note-seen': decideNoteSeen,
  'flag.clone': decideClone,
  'flags.stale': decideStaleMany,
  'flags.archive': decideArchiveMany,
  'flags.enable': decideToggleMany,
  'flags.disable': decideToggleMany,
  'strategy.add': decideAddStrategy,
  'strategy.update': decideUpdateStrategy,
  'strategy.patch': decidePatchStrategy,
  'strategy.delete': decideDeleteStrategy,
  'strategy.set-sort-order': decideSetSortOrder,
  'strategy.copy': decideCopyStrategies,
  'flag.enable': decideEnable,
  'flag.disable': decideDisable,
  'variants.set': decideSetVariants,
  'variants.patch': decidePatchVariants,
  'default-strategy.set': decideDefaultStrategy,
  'environment.connect': decideConnect,
  'environment.disconnect': decideDisconnect,
  'environment.release': decideRelease,
  'member.add': decideAddMember,
  'member.change': decideChangeMember,
  'member.remove': decideRemoveMember,
  'member.purge': decidePurgeMember,
  'tags.change': decideChangeTags,
  'tags.drop-type': decideDropTagType,
  'dependency.add': decideAddDependency,
  'dependency.remove': decideRemoveDependency,
  'flags.import': decideImport,
  'import.settle': decideSettleImport,
  'change-request.configure': decideConfigure,
  'change-request.add': decideAddChanges,
  'change-request.edit-change': decideEditChange,
  'change-request.discard-change': decideDiscardChange,
  'change-request.discard': decideDiscard,
  'change-request.set-title': decideSetTitle,
  'change-request.comment': decideComment,
  'change-request.set-reviewers': decideSetReviewers,
  'change-request.transition': decideTransition,
  'change-request.apply': decideApply,
  'change-request.settle-segments': decideSettleSegments,
  'change-request.scheduler-deleted': decideSchedulerDeleted,
};

/**
 * Decides one project command against the current draft: the events to record and the reply, or an
 * expected failure. Pure apart from new ids; never touches storage. The reply's type follows from the
 * command's (see `ProjectReplies`).
 */
export function decide<C extends ProjectCommand>(draft: ProjectDraft, command: C, context: ProjectContext): Decision<ProjectEvent, ProjectReplies[C['type']]> {
  // The table is keyed by the same union the command belongs to; TypeScript cannot correlate the two on its own.
  // A deleted project (its last record said so) decides nothing more: a command queued behind the delete finds no project.
  if (draft.meta.deleted) return refuse(fail('NotFoundError', `Could not find project "${draft.meta.id}"`));
  // Environments that take changes through requests refuse direct writes from senders who may not skip them.
  const protectedRefusal = changeRequestGuard(draft.meta, command, context);
  if (protectedRefusal) return refuse(protectedRefusal);
  const decider = DECIDERS[command.type] as (draft: ProjectDraft, command: C, context: ProjectContext) => Decision<ProjectEvent, ProjectReplies[C['type']]>;
  // A write that makes a scheduled request conflict suspends its schedule in the same record, as Unleash does.
  return withSuspendedSchedules(draft, decider(draft, command, context), context);
}
