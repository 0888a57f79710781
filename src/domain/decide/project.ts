import { LIMIT_VARIABLES, overLimit } from '../../limits.js';
import type { Cmd } from '../commands.js';
import { withoutKey } from '../dict.js';
import type { CommandContext } from '../context.js';
import { accept, fail, refuse, type Decision } from '../errors.js';
import type { ProjectEvent } from '../events.js';
import type { ProjectDraft } from '../project-state.js';
import { PROJECT_OWNER } from '../roles.js';
import type { ProjectMeta } from '../types.js';

type MetaDecision = Decision<ProjectEvent, null>;

const updated = (draft: ProjectDraft, meta: ProjectMeta): MetaDecision =>
  accept([{ type: 'project.updated', meta, before: draft.meta }], null);

export function decideConnect(draft: ProjectDraft, cmd: Cmd<'environment.connect'>): MetaDecision {
  if (draft.meta.environments.includes(cmd.environment)) return accept([], null);
  return updated(draft, { ...draft.meta, environments: [...draft.meta.environments, cmd.environment] });
}

/** Disconnecting hides the environment; flags keep their entries, as Unleash keeps them until deletion. */
export function decideDisconnect(draft: ProjectDraft, cmd: Cmd<'environment.disconnect'>): MetaDecision {
  if (!draft.meta.environments.includes(cmd.environment)) {
    return refuse(fail('NotFoundError', `Environment "${cmd.environment}" is not enabled for project "${draft.meta.id}"`));
  }
  if (draft.meta.environments.length === 1) {
    return refuse(fail('InvalidOperationError', 'A project must keep at least one environment'));
  }
  const defaultStrategies = withoutKey(draft.meta.defaultStrategies, cmd.environment);
  return updated(draft, { ...draft.meta, environments: draft.meta.environments.filter((e) => e !== cmd.environment), defaultStrategies });
}

const owners = (meta: ProjectMeta) => Object.values(meta.members).filter((role) => role === PROJECT_OWNER).length;
const noOwnerLeft = () => fail('MembershipError', 'A project must have at least one owner');

/** Seed 4.17: one role per user; adding a member twice is a 400. */
export function decideAddMember(draft: ProjectDraft, cmd: Cmd<'member.add'>, context: CommandContext): MetaDecision {
  const key = String(cmd.userId);
  if (draft.meta.members[key] !== undefined) return refuse(fail('MembershipError', 'User already has access to this project'));
  const limit = context.limits.membersPerProject;
  if (Object.keys(draft.meta.members).length >= limit) {
    return refuse(fail('ExceedsLimitError', overLimit(`The number of members of project "${draft.meta.id}"`, limit, LIMIT_VARIABLES.membersPerProject)));
  }
  return updated(draft, { ...draft.meta, members: { ...draft.meta.members, [key]: cmd.roleId } });
}

/** Seed 4.18: a user not in the project is left alone (200); the last Owner cannot be demoted. */
export function decideChangeMember(draft: ProjectDraft, cmd: Cmd<'member.change'>): MetaDecision {
  const key = String(cmd.userId);
  const current = draft.meta.members[key];
  if (current === undefined || current === cmd.roleId) return accept([], null);
  if (current === PROJECT_OWNER && owners(draft.meta) === 1) return refuse(noOwnerLeft());
  return updated(draft, { ...draft.meta, members: { ...draft.meta.members, [key]: cmd.roleId } });
}

/** Seed 4.19: the user must hold the role; the last Owner cannot leave. */
export function decideRemoveMember(draft: ProjectDraft, cmd: Cmd<'member.remove'>): MetaDecision {
  const key = String(cmd.userId);
  const current = draft.meta.members[key];
  if (current !== cmd.roleId) return refuse(fail('MembershipError', `User ${cmd.userId} does not have role ${cmd.roleId} in this project`));
  if (current === PROJECT_OWNER && owners(draft.meta) === 1) return refuse(noOwnerLeft());
  const { [key]: _removed, ...members } = draft.meta.members;
  return updated(draft, { ...draft.meta, members });
}

/** A deleted user leaves every project; refused where they are the only Owner. */
export function decidePurgeMember(draft: ProjectDraft, cmd: Cmd<'member.purge'>): MetaDecision {
  const key = String(cmd.userId);
  const current = draft.meta.members[key];
  if (current === undefined) return accept([], null);
  if (current === PROJECT_OWNER && owners(draft.meta) === 1) return refuse(noOwnerLeft());
  const { [key]: _removed, ...members } = draft.meta.members;
  return updated(draft, { ...draft.meta, members });
}
