/**
 * Deciders of a flag's lifecycle stages (docs/api-decisions.md "Feature lifecycle"): completing and
 * reopening a flag, and the stages SDK reports move it into. The flag-stage machine says what each is allowed
 * and what it enters; the flag-lifecycle machine refuses every change to an archived flag.
 */
import { flagRules } from '../../../machines/flag-rules.js';
import type { CommandContext } from '../context.js';
import type { Cmd } from '../commands.js';
import { accept, fail, refuse } from '../errors.js';
import type { ProjectEvent } from '../events.js';
import { entersStages, stageValue } from '../flag-stages.js';
import type { ProjectDraft } from '../project-state.js';
import type { FlagCompletion } from '../types.js';
import { acceptOnFlag, flagForChange, type FlagDecision } from './shared.js';

const sameCompletion = (a: FlagCompletion, b: FlagCompletion) => a.status === b.status && a.statusValue === b.statusValue;

/**
 * `complete`: the flag is marked completed with `status` (and `statusValue`). Completing a completed flag
 * replaces its status and keeps the moment it was first completed; the same status again records nothing.
 */
export function decideComplete(draft: ProjectDraft, cmd: Cmd<'flag.complete'>, context: CommandContext): FlagDecision<'flag.complete'> {
  const found = flagForChange(draft, cmd.feature, cmd.ifMatch);
  if (!found.ok) return refuse(found.error);
  const flag = found.value;
  if (flagRules.complete(stageValue(flag)) === null) return refuse(fail('InvalidOperationError', `Feature flag "${flag.name}" cannot be completed now`));
  const before = flag.stages?.completed ?? null;
  const completion: FlagCompletion = { at: before?.at ?? context.at, status: cmd.status };
  if (cmd.statusValue !== undefined) completion.statusValue = cmd.statusValue;
  if (before && sameCompletion(before, completion)) return acceptOnFlag([], null, flag, context);
  return acceptOnFlag([{ type: 'flag.completed', name: flag.name, version: context.seq, completion, before }], null, flag, context);
}

/** `uncomplete`: the flag leaves `completed` for the stage its usage reached; of a flag not completed, nothing. */
export function decideUncomplete(draft: ProjectDraft, cmd: Cmd<'flag.uncomplete'>, context: CommandContext): FlagDecision<'flag.uncomplete'> {
  const found = flagForChange(draft, cmd.feature, cmd.ifMatch);
  if (!found.ok) return refuse(found.error);
  const flag = found.value;
  const value = stageValue(flag);
  const next = flagRules.uncomplete(value);
  if (next === null) return refuse(fail('InvalidOperationError', `Feature flag "${flag.name}" cannot be reopened now`));
  const before = flag.stages?.completed;
  if (next.completed === value.completed || before === undefined) return acceptOnFlag([], null, flag, context);
  return acceptOnFlag([{ type: 'flag.uncompleted', name: flag.name, version: context.seq, before }], null, flag, context);
}

/** The stages SDK reports from one environment move the listed flags into; unknown names are left alone. */
export function decideNoteSeen(draft: ProjectDraft, cmd: Cmd<'flags.note-seen'>, context: CommandContext): FlagDecision<'flags.note-seen'> {
  const events: ProjectEvent[] = [];
  for (const name of new Set(cmd.features)) {
    const flag = draft.getFlag(name);
    if (!flag) continue;
    const stages = entersStages(flag, cmd.environment, cmd.production);
    if (stages.length > 0) events.push({ type: 'flag.stages-entered', name, environment: cmd.environment, stages: [...stages], at: context.at });
  }
  return accept(events, null);
}
