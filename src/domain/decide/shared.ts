import { flagRules } from '../../../machines/flag-rules.js';
import { LIMIT_VARIABLES, overLimit } from '../../limits.js';
import { formatIssues } from '../../schemas/issues.js';
import { own } from '../dict.js';
import { applyFlagEvent, enabledCount } from '../flag-events.js';
import type { FlagEvent } from '../events.js';
import type { IfMatch, ProjectReplies } from '../commands.js';
import { failed, ok, type Result, type Versioned } from '../result.js';
import type { CommandContext } from '../context.js';
import { accept, fail, refuse, type Decision, type DomainError } from '../errors.js';
import type { ProjectEvent } from '../events.js';
import type { ProjectDraft } from '../project-state.js';
import type { Flag, FlagEnvironment } from '../types.js';

/** An environment connected after the flag was created: the machine's initial state, no strategies. */
const EMPTY_ENVIRONMENT: FlagEnvironment = Object.freeze({ ...flagRules.newEnvironment(), strategies: [] }) as FlagEnvironment;

/**
 * Loads a flag for a change: it must exist, match `If-Match` when given, and (unless `archivedOk`) the
 * lifecycle machine must accept a change.
 */
export function flagForChange(draft: ProjectDraft, name: string, ifMatch: IfMatch, archivedOk = false): Result<Flag> {
  const flag = draft.getFlag(name);
  if (!flag) return failed(fail('NotFoundError', `Could not find feature flag "${name}" in project "${draft.meta.id}"`));
  if (ifMatch !== undefined && ifMatch !== flag.version) {
    return failed(fail('PreconditionFailed', `If-Match does not match the current version of "${name}"`));
  }
  if (!archivedOk && !flagRules.acceptsChange(flag.archived)) {
    return failed(fail('ArchivedFeatureError', `Feature flag "${name}" is archived; revive it before changing it`));
  }
  return ok(flag);
}

/** The environment must be connected to the project. */
export function checkEnvironment(draft: ProjectDraft, environment: string): DomainError | null {
  if (draft.meta.environments.includes(environment)) return null;
  return fail('NotFoundError', `Environment "${environment}" is not enabled for project "${draft.meta.id}"`);
}

/** A flag and its entry in one environment of the project, loaded for a change (see {@link flagForChange}). */
export type Target = Result<{ flag: Flag; entry: FlagEnvironment }>;

export function flagInEnvironment(draft: ProjectDraft, cmd: { feature: string; environment: string; ifMatch?: IfMatch }): Target {
  const found = flagForChange(draft, cmd.feature, cmd.ifMatch);
  if (!found.ok) return found;
  const envError = checkEnvironment(draft, cmd.environment);
  if (envError) return failed(envError);
  return ok({ flag: found.value, entry: environmentOf(found.value, cmd.environment) });
}

/** A flag's entry for an environment; environments connected after the flag was created start empty. */
export const environmentOf = (flag: Flag, environment: string): FlagEnvironment =>
  own(flag.environments, environment) ?? EMPTY_ENVIRONMENT;

export { enabledCount };

/**
 * Accepts a flag command: its events, and the answer with the flag's version after them (the record's
 * sequence number when there are events, the version it kept otherwise).
 */
export function acceptOnFlag<T>(events: ProjectEvent[], value: T, flag: Flag, context: CommandContext): Decision<ProjectEvent, Versioned<T>> {
  return accept(events, { value, version: events.length > 0 ? context.seq : flag.version });
}

/** Refuses a new flag once the project holds `flagsPerProject` (archived ones count: their names are taken). */
export function checkFlagCount(draft: ProjectDraft, context: CommandContext): DomainError | null {
  const { flagsPerProject } = context.limits;
  if (draft.flagCount() < flagsPerProject) return null;
  return fail('ExceedsLimitError', overLimit(`The number of flags in project "${draft.meta.id}"`, flagsPerProject, LIMIT_VARIABLES.flagsPerProject));
}

/**
 * Refuses a change that would make the flag larger than `flagBytes` as stored: the UTF-8 bytes of its JSON,
 * measured once on the flag the change builds.
 */
export function checkFlagSize(flag: Flag, context: CommandContext): DomainError | null {
  const size = Buffer.byteLength(JSON.stringify(flag));
  if (size <= context.limits.flagBytes) return null;
  return fail('ExceedsLimitError', overLimit(`The size of flag "${flag.name}" (${size} bytes after this change)`, context.limits.flagBytes, LIMIT_VARIABLES.flagBytes));
}

/**
 * Accepts one event that changes `flag` (the draft's), once the flag it leaves stays within `flagBytes`; the
 * reply carries the flag's new version. The flag built here is handed to the draft, for `evolve` to take.
 */
export function acceptFlagChange<T>(draft: ProjectDraft, flag: Flag, event: FlagEvent, value: T, context: CommandContext): Decision<ProjectEvent, Versioned<T>> {
  const after = applyFlagEvent(flag, event);
  const tooLarge = after ? checkFlagSize(after, context) : null;
  if (tooLarge) return refuse(tooLarge);
  if (after) draft.noteBuilt(event, after);
  return acceptOnFlag([event], value, flag, context);
}

/** Refuses a strategy beyond `strategiesPerEnvironment` in one flag environment. */
export function checkStrategyCount(flag: Flag, environment: string, count: number, context: CommandContext): DomainError | null {
  const limit = context.limits.strategiesPerEnvironment;
  if (count <= limit) return null;
  return fail('ExceedsLimitError', overLimit(`The number of strategies of flag "${flag.name}" in environment "${environment}"`, limit, LIMIT_VARIABLES.strategiesPerEnvironment));
}

/** A 400 naming the property that failed its schema. */
export function invalid(issues: Parameters<typeof formatIssues>[0], capped = false): DomainError {
  const { message, details } = formatIssues(issues, { complete: !capped });
  return fail('ValidationError', message, details);
}

/** The decision of a flag command, typed by the command's reply. */
export type FlagDecision<K extends keyof ProjectReplies> = Decision<ProjectEvent, ProjectReplies[K]>;
