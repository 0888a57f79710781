/**
 * A change of a request is a direct write waiting: each flag change maps to the project command the matching
 * route would send, and is decided by that command's own decider, so a request is held to every rule a
 * direct write is (lifecycle, on/off, strategies, segments, definitions, dependencies, limits). Segment
 * changes are the service's (`change-request-segments.ts`).
 */
import type { ChangeBody, FlagChange } from '../change-request.js';
import type { Cmd, ProjectCommand } from '../commands.js';
import type { ProjectContext } from '../context.js';
import type { Decision } from '../errors.js';
import type { ProjectEvent } from '../events.js';
import { evolve, type ProjectDraft } from '../project-state.js';
import { decideAddDependency, decideRemoveDependency } from './dependencies.js';
import { decideArchive } from './flags.js';
import { decideAddStrategy, decideDeleteStrategy, decideUpdateStrategy } from './strategies.js';
import { decideSetSortOrder } from './strategy-order.js';
import { decideDisable, decideEnable } from './toggles.js';
import { decideSetVariants } from './variants.js';

/** A flag change as it is sent: without the id, snapshot and author a stored change has. */
export type FlagChangeBody = Extract<ChangeBody, { action: FlagChange['action'] }>;

/** The project command a flag change stands for, in the request's environment. */
export function commandOf(change: FlagChangeBody, environment: string): ProjectCommand {
  const feature = change.feature;
  switch (change.action) {
    case 'updateEnabled':
      return change.payload.enabled
        ? { type: 'flag.enable', feature, environment, activateDisabled: change.payload.shouldActivateDisabledStrategies ?? false }
        : { type: 'flag.disable', feature, environment };
    case 'addStrategy':
      return { type: 'strategy.add', feature, environment, strategy: change.payload };
    case 'updateStrategy': {
      const { id, name, ...rest } = change.payload;
      // The name is filled in when the change is added (the strategy's own, when the client left it out).
      return { type: 'strategy.update', feature, environment, strategyId: id, strategy: { ...rest, name: name ?? '' } };
    }
    case 'deleteStrategy':
      return { type: 'strategy.delete', feature, environment, strategyId: change.payload.id };
    case 'reorderStrategy':
      return { type: 'strategy.set-sort-order', feature, environment, order: change.payload };
    case 'patchVariant':
      return { type: 'variants.set', feature, variants: change.payload.variants };
    case 'archiveFeature':
      return { type: 'flag.archive', feature };
    case 'addDependency':
      return { type: 'dependency.add', feature, dependency: change.payload, elsewhere: false };
    case 'deleteDependency':
      return { type: 'dependency.remove', feature, parent: change.payload?.feature ?? undefined };
  }
}

/** Decides a command of a change with its own decider (no change-request guard: the request is the way through). */
function decideCommand(draft: ProjectDraft, command: ProjectCommand, context: ProjectContext): Decision<ProjectEvent, unknown> {
  switch (command.type) {
    case 'flag.enable': return decideEnable(draft, command, context);
    case 'flag.disable': return decideDisable(draft, command, context);
    case 'strategy.add': return decideAddStrategy(draft, command, context);
    case 'strategy.update': return decideUpdateStrategy(draft, command, context);
    case 'strategy.delete': return decideDeleteStrategy(draft, command, context);
    case 'strategy.set-sort-order': return decideSetSortOrder(draft, command, context);
    case 'variants.set': return decideSetVariants(draft, command, context);
    case 'flag.archive': return decideArchive(draft, command as Cmd<'flag.archive'>, context);
    case 'dependency.add': return decideAddDependency(draft, command, context);
    case 'dependency.remove': return decideRemoveDependency(draft, command, context);
    default: throw new Error(`no change decides ${command.type}`);
  }
}

/**
 * Decides one flag change against `trial` and, accepted, evolves the trial with its events, so the next change
 * sees it; the events are returned for the record. Refused: the error, the trial untouched.
 */
export function decideChange(trial: ProjectDraft, change: FlagChangeBody, environment: string, context: ProjectContext): Decision<ProjectEvent, unknown> {
  const decision = decideCommand(trial, commandOf(change, environment), context);
  if (decision.ok) for (const event of decision.events) evolve(trial, event);
  return decision;
}

/** How a change is named in messages: `change 3 (updateStrategy of "checkout")`. */
export const changeLabel = (change: { id?: number; action: string; feature?: string | null | undefined }, index?: number): string =>
  `change ${change.id ?? (index === undefined ? '' : `#${index + 1} of the body`)}`.trimEnd() + ` (${change.action}${change.feature ? ` of "${change.feature}"` : ''})`;
