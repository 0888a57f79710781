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
  const decider = DECIDERS[command.type] as (draft: ProjectDraft, command: C, context: ProjectContext) => Decision<ProjectEvent, ProjectReplies[C['type']]>;
  return decider(draft, command, context);
}
