/**
 * Writes to many flags of a project in one command (Unleash 6.10's bulk routes): mark stale or not stale,
 * archive, enable or disable in one environment. One command, one log record: all of it or nothing.
 */
import { flagRules } from '../../../machines/flag-rules.js';
import type { Cmd } from '../commands.js';
import type { ProjectContext } from '../context.js';
import { accept, fail, refuse } from '../errors.js';
import type { ProjectEvent } from '../events.js';
import type { ProjectDraft } from '../project-state.js';
import { childrenOf } from './dependencies.js';
import type { FlagDecision } from './shared.js';
import { decideDisable, decideEnable } from './toggles.js';

/**
 * `stale` on every listed flag that is active and not already so: one `flag.updated` each. Unknown names
 * are ignored (as Unleash); archived flags too (they refuse changes, and a bulk request is not refused
 * for one of them).
 */
export function decideStaleMany(draft: ProjectDraft, cmd: Cmd<'flags.stale'>, context: ProjectContext): FlagDecision<'flags.stale'> {
  const events: ProjectEvent[] = [];
  for (const name of new Set(cmd.features)) {
    const flag = draft.getFlag(name);
    if (!flag || !flagRules.acceptsChange(flag.archived) || flag.stale === cmd.stale) continue;
    const before = { description: flag.description, type: flag.type, stale: flag.stale, impressionData: flag.impressionData };
    events.push({ type: 'flag.updated', name, version: context.seq, before, after: { ...before, stale: cmd.stale } });
  }
  return accept(events, null);
}

/**
 * Archives every listed flag that is active; unknown and archived names are ignored (as Unleash). A
 * listed flag that active flags outside the list depend on refuses the whole command (Unleash's "orphan
 * parents" rule); an archived child lets go of its parents, as a single archive does.
 */
export function decideArchiveMany(draft: ProjectDraft, cmd: Cmd<'flags.archive'>, context: ProjectContext): FlagDecision<'flags.archive'> {
  const listed = new Set(cmd.features);
  const events: ProjectEvent[] = [];
  for (const name of listed) {
    const flag = draft.getFlag(name);
    const step = flag ? flagRules.archive(flag.archived) : null;
    if (!flag || step === null || step.archived === flag.archived) continue;
    const orphaned = childrenOf(draft, name).filter((child) => !listed.has(child));
    if (orphaned.length > 0) {
      return refuse(fail('InvalidOperationError', `You can not archive/delete "${name}" since other features depend on it (${orphaned.slice(0, 10).map((c) => `"${c}"`).join(', ')}); archive them too or remove their dependencies first.`));
    }
    const parents = flag.dependencies ?? [];
    if (parents.length > 0) events.push({ type: 'dependencies.removed', name, version: context.seq, removed: parents });
    events.push({ type: 'flag.archived', name, version: context.seq, at: context.at });
  }
  return accept(events, null);
}

/**
 * `/on` or `/off` on every listed flag in one environment, each decided as the single route decides it
 * (the default strategy added where `/on` needs it). Any unknown or archived flag, or a flag `/on` cannot
 * enable, refuses the whole command (as Unleash's transaction does).
 */
export function decideToggleMany(draft: ProjectDraft, cmd: Cmd<'flags.enable' | 'flags.disable'>, context: ProjectContext): FlagDecision<'flags.enable'> {
  const events: ProjectEvent[] = [];
  for (const feature of new Set(cmd.features)) {
    // Each name is a different flag: deciding each against the same draft is deciding them in turn.
    const one = cmd.type === 'flags.enable'
      ? decideEnable(draft, { type: 'flag.enable', feature, environment: cmd.environment, activateDisabled: cmd.activateDisabled ?? false }, context)
      : decideDisable(draft, { type: 'flag.disable', feature, environment: cmd.environment }, context);
    if (!one.ok) return refuse(one.error);
    events.push(...one.events);
  }
  return accept(events, null);
}
