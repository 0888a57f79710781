import { LIMIT_VARIABLES, overLimit } from '../../limits.js';
import type { Cmd } from '../commands.js';
import { own, withKey, withoutKey } from '../dict.js';
import type { CommandContext } from '../context.js';
import { accept, fail, refuse, type Decision } from '../errors.js';
import type { ProjectEvent } from '../events.js';
import type { ProjectDraft } from '../project-state.js';
import { failed, ok, type Result } from '../result.js';
import { PROJECT_OWNER } from '../roles.js';
import type { ProjectMeta, StrategyInput } from '../types.js';

type MetaDecision = Decision<ProjectEvent, null>;

const updated = (draft: ProjectDraft, meta: ProjectMeta): MetaDecision =>
  accept([{ type: 'project.updated', meta, before: draft.meta }], null);

/**
 * Connects an environment (Unleash's `addEnvironmentToProject`): every flag, archived ones too, then has an
 * entry there, disabled and without strategies (an entry the flag lacks reads as exactly that). Connecting
 * one already connected is a 409, as in Unleash. `restore` puts back a default strategy a release removed.
 */
export function decideConnect(draft: ProjectDraft, cmd: Cmd<'environment.connect'>): MetaDecision {
  if (draft.meta.environments.includes(cmd.environment)) {
    return refuse(fail('NameExistsError', `Project "${draft.meta.id}" already has the environment "${cmd.environment}" enabled`));
  }
  const defaultStrategies = cmd.restore ? withKey(draft.meta.defaultStrategies, cmd.environment, cmd.restore) : draft.meta.defaultStrategies;
  return updated(draft, { ...draft.meta, environments: [...draft.meta.environments, cmd.environment], defaultStrategies });
}

const notConnected = (draft: ProjectDraft, environment: string) =>
  fail('NotFoundError', `Environment "${environment}" is not enabled for project "${draft.meta.id}"`);

/** The meta without `environment`, or why it cannot lose it (flagpole keeps at least one per project). */
function withoutEnvironment(draft: ProjectDraft, environment: string): Result<ProjectMeta> {
  if (!draft.meta.environments.includes(environment)) return failed(notConnected(draft, environment));
  if (draft.meta.environments.length === 1) {
    return failed(fail('InvalidOperationError', `Environment "${environment}" is the last environment of project "${draft.meta.id}"; a project must keep at least one environment`));
  }
  const defaultStrategies = withoutKey(draft.meta.defaultStrategies, environment);
  const meta: ProjectMeta = { ...draft.meta, environments: draft.meta.environments.filter((e) => e !== environment), defaultStrategies };
  // Its change-request setting goes with it: connected again, the environment starts without one.
  if (meta.changeRequestSettings && Object.hasOwn(meta.changeRequestSettings, environment)) meta.changeRequestSettings = withoutKey(meta.changeRequestSettings, environment);
  return ok(meta);
}

/**
 * Disconnects an environment, as Unleash does: every flag's entry there goes, with its strategies, and the
 * project's default strategy for it. Connecting it again gives every flag a new, empty, disabled entry.
 */
export function decideDisconnect(draft: ProjectDraft, cmd: Cmd<'environment.disconnect'>, context: CommandContext): MetaDecision {
  const next = withoutEnvironment(draft, cmd.environment);
  if (!next.ok) return refuse(next.error);
  return accept([{ type: 'environment.disconnected', environment: cmd.environment, meta: next.value, before: draft.meta, version: context.seq }], null);
}

/**
 * The first step of deleting an environment from the service: the project lets go of it only while none of
 * its flags (archived ones included) has an entry there, decided here so no flag is created in between.
 */
export function decideRelease(draft: ProjectDraft, cmd: Cmd<'environment.release'>, context: CommandContext): Decision<ProjectEvent, StrategyInput | null> {
  if (!draft.meta.environments.includes(cmd.environment)) return accept([], null);
  const flags = draft.flagCount();
  if (flags > 0) {
    return refuse(fail('InvalidOperationError', `Environment "${cmd.environment}" is used by ${flags} feature flag(s) of project "${draft.meta.id}" (archived ones included); remove it from the project first`));
  }
  const next = withoutEnvironment(draft, cmd.environment);
  if (!next.ok) return refuse(next.error);
  const defaultStrategy = own(draft.meta.defaultStrategies, cmd.environment) ?? null;
  return accept([{ type: 'environment.disconnected', environment: cmd.environment, meta: next.value, before: draft.meta, version: context.seq }], defaultStrategy);
}

/** `PUT /api/admin/projects/:projectId`: name, description, mode and default stickiness. */
export function decideUpdateProject(draft: ProjectDraft, cmd: Cmd<'project.update'>, context: CommandContext): Decision<ProjectEvent, ProjectMeta> {
  const { meta } = draft;
  const { settings } = cmd;
  const name = settings.name;
  const description = settings.description ?? meta.description;
  const mode = settings.mode ?? meta.mode ?? 'open';
  const defaultStickiness = settings.defaultStickiness ?? meta.defaultStickiness ?? 'default';
  const same = meta.name === name && meta.description === description && (meta.mode ?? 'open') === mode && (meta.defaultStickiness ?? 'default') === defaultStickiness;
  if (same) return accept([], meta);
  const next: ProjectMeta = { ...meta, name, description, mode, defaultStickiness, updatedAt: context.at };
  return accept([{ type: 'project.updated', meta: next, before: meta }], next);
}

/**
 * Deletes the project, as Unleash does: refused while it has active flags; its archived flags go with it. One
 * small record marks the meta `deleted` (no copy of each archived flag: the project's whole log is removed right
 * after, see `Registry.deleteProject`); the reply names the archived flags deleted with it.
 */
export function decideDeleteProject(draft: ProjectDraft): Decision<ProjectEvent, string[]> {
  const active = draft.flagsWhere((flag) => !flag.archived).length;
  if (active > 0) {
    return refuse(fail('InvalidOperationError', `You can not delete a project with active feature flags: project "${draft.meta.id}" has ${active}; archive them first`));
  }
  const archived = draft.flagsWhere((flag) => flag.archived);
  return accept([{ type: 'project.updated', meta: { ...draft.meta, deleted: true }, before: draft.meta }], archived);
}

const owners = (meta: ProjectMeta) => Object.values(meta.members).filter((role) => role === PROJECT_OWNER).length;
const noOwnerLeft = () => fail('MembershipError', 'A project must have at least one owner');

/** One role per user; adding a member twice is a 400 (docs/admin-contract.md §4.17). */
export function decideAddMember(draft: ProjectDraft, cmd: Cmd<'member.add'>, context: CommandContext): MetaDecision {
  const key = String(cmd.userId);
  if (draft.meta.members[key] !== undefined) return refuse(fail('MembershipError', 'User already has access to this project'));
  const limit = context.limits.membersPerProject;
  if (Object.keys(draft.meta.members).length >= limit) {
    return refuse(fail('ExceedsLimitError', overLimit(`The number of members of project "${draft.meta.id}"`, limit, LIMIT_VARIABLES.membersPerProject)));
  }
  return updated(draft, { ...draft.meta, members: { ...draft.meta.members, [key]: cmd.roleId } });
}

/** A user not in the project is left alone (200, docs/admin-contract.md §4.18); the last Owner cannot be demoted. */
export function decideChangeMember(draft: ProjectDraft, cmd: Cmd<'member.change'>): MetaDecision {
  const key = String(cmd.userId);
  const current = draft.meta.members[key];
  if (current === undefined || current === cmd.roleId) return accept([], null);
  if (current === PROJECT_OWNER && owners(draft.meta) === 1) return refuse(noOwnerLeft());
  return updated(draft, { ...draft.meta, members: { ...draft.meta.members, [key]: cmd.roleId } });
}

/** The user must hold the role (docs/admin-contract.md §4.19); the last Owner cannot leave. */
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
