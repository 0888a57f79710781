import type { CommandContext } from './context.js';
import type { ProjectCommand } from './commands.js';
import { accept, type Decision } from './errors.js';
import type { ProjectEvent } from './events.js';
import type { ProjectDraft } from './project-state.js';
import { decideArchive, decideClone, decideCreate, decideDeleteArchived, decidePatch, decideRevive, decideUpdate } from './decide/flags.js';
import { decideAddMember, decideChangeMember, decideConnect, decideDisconnect, decidePurgeMember, decideRemoveMember } from './decide/project.js';
import { decideAddStrategy, decideDeleteStrategy, decidePatchStrategy, decideUpdateStrategy } from './decide/strategies.js';
import { decideDefaultStrategy, decideDisable, decideEnable } from './decide/toggles.js';
import { decidePatchVariants, decideSetVariants } from './decide/variants.js';

/**
 * Decides one project command against the current draft: the events to record and the reply, or an
 * expected failure. Pure apart from new ids; never touches storage.
 */
export function decide(draft: ProjectDraft, command: ProjectCommand, context: CommandContext): Decision<ProjectEvent, unknown> {
  switch (command.type) {
    case 'project.create':
      return accept([{ type: 'project.created', meta: command.meta }], command.meta);
    case 'flag.create':
      return decideCreate(draft, command, context);
    case 'flag.update':
      return decideUpdate(draft, command, context);
    case 'flag.patch':
      return decidePatch(draft, command, context);
    case 'flag.archive':
      return decideArchive(draft, command, context);
    case 'flag.revive':
      return decideRevive(draft, command, context);
    case 'flag.delete-archived':
      return decideDeleteArchived(draft, command);
    case 'flag.clone':
      return decideClone(draft, command, context);
    case 'strategy.add':
      return decideAddStrategy(draft, command, context);
    case 'strategy.update':
      return decideUpdateStrategy(draft, command, context);
    case 'strategy.patch':
      return decidePatchStrategy(draft, command, context);
    case 'strategy.delete':
      return decideDeleteStrategy(draft, command, context);
    case 'flag.enable':
      return decideEnable(draft, command, context);
    case 'flag.disable':
      return decideDisable(draft, command, context);
    case 'variants.set':
      return decideSetVariants(draft, command, context);
    case 'variants.patch':
      return decidePatchVariants(draft, command, context);
    case 'default-strategy.set':
      return decideDefaultStrategy(draft, command);
    case 'environment.connect':
      return decideConnect(draft, command);
    case 'environment.disconnect':
      return decideDisconnect(draft, command);
    case 'member.add':
      return decideAddMember(draft, command);
    case 'member.change':
      return decideChangeMember(draft, command);
    case 'member.remove':
      return decideRemoveMember(draft, command);
    case 'member.purge':
      return decidePurgeMember(draft, command);
  }
}
