/**
 * Flag dependencies (docs/api-decisions.md "Dependencies"), with Unleash 6.10's rules: a flag never depends
 * on itself; one level only (a parent has no parent, a child is nobody's parent); the parent is an active
 * flag of the same project. Decided in the project mailbox, so two concurrent additions cannot build a chain.
 */
import { LIMIT_VARIABLES, overLimit } from '../../limits.js';
import type { Cmd } from '../commands.js';
import type { CommandContext } from '../context.js';
import { fail, refuse } from '../errors.js';
import type { ProjectDraft } from '../project-state.js';
import type { Dependency, Flag } from '../types.js';
import type { FlagDecision } from './shared.js';
import { acceptFlagChange, acceptOnFlag, flagForChange } from './shared.js';

const invalidOperation = (message: string) => fail('InvalidOperationError', message);

/** The active flags of the project that depend on `name`. */
export const childrenOf = (draft: Pick<ProjectDraft, 'flagsWhere' | 'hasDependencies'>, name: string): string[] =>
  !draft.hasDependencies() ? [] : draft.flagsWhere((flag) => flag.dependencies !== undefined && flag.dependencies.length > 0 && !flag.archived && flag.dependencies.some((d) => d.feature === name));

/** Adds a dependency on a parent, or replaces the one on the same parent. */
export function decideAddDependency(draft: ProjectDraft, cmd: Cmd<'dependency.add'>, context: CommandContext): FlagDecision<'dependency.add'> {
  const found = flagForChange(draft, cmd.feature, cmd.ifMatch);
  if (!found.ok) return refuse(found.error);
  const child = found.value;
  const parentName = cmd.dependency.feature;
  if (parentName === child.name) return refuse(invalidOperation('A feature flag cannot depend on itself.'));
  const children = childrenOf(draft, child.name);
  if (children.length > 0) {
    return refuse(invalidOperation(`Transitive dependency detected. Cannot add a dependency to the feature that other features depend on (${children.slice(0, 10).map((c) => `"${c}"`).join(', ')}).`));
  }
  const parent = draft.getFlag(parentName);
  if (!parent || parent.archived) {
    return refuse(invalidOperation(cmd.elsewhere && !parent
      ? `Parent and child features should be in the same project: "${parentName}" is not in project "${draft.meta.id}"`
      : `No active feature ${parentName} exists in project "${draft.meta.id}"`));
  }
  if ((parent.dependencies ?? []).length > 0) {
    return refuse(invalidOperation('Transitive dependency detected. Cannot add a dependency to the feature that has parent dependency.'));
  }
  const dependency: Dependency = cmd.dependency.enabled
    ? { feature: parentName, enabled: true, variants: [...new Set(cmd.dependency.variants ?? [])] }
    : { feature: parentName, enabled: false };
  const current = child.dependencies ?? [];
  const before = current.find((d) => d.feature === parentName) ?? null;
  if (before && sameDependency(before, dependency)) return acceptOnFlag([], null, child, context);
  if (!before && current.length >= context.limits.parentsPerFlag) {
    return refuse(fail('ExceedsLimitError', overLimit(`The number of parents of flag "${child.name}"`, context.limits.parentsPerFlag, LIMIT_VARIABLES.parentsPerFlag)));
  }
  return acceptFlagChange(draft, child, { type: 'dependency.added', name: child.name, version: context.seq, dependency, before }, null, context);
}

/** Removes the dependency on one parent (none there: 200, nothing changes, as Unleash) or all of them. */
export function decideRemoveDependency(draft: ProjectDraft, cmd: Cmd<'dependency.remove'>, context: CommandContext): FlagDecision<'dependency.remove'> {
  const found = flagForChange(draft, cmd.feature, cmd.ifMatch);
  if (!found.ok) return refuse(found.error);
  const flag: Flag = found.value;
  const removed = (flag.dependencies ?? []).filter((d) => cmd.parent === undefined || d.feature === cmd.parent);
  if (removed.length === 0) return acceptOnFlag([], null, flag, context);
  return acceptOnFlag([{ type: 'dependencies.removed', name: flag.name, version: context.seq, removed }], null, flag, context);
}

const sameDependency = (a: Dependency, b: Dependency) =>
  a.enabled === b.enabled && JSON.stringify(a.variants ?? []) === JSON.stringify(b.variants ?? []);
