/** `POST .../strategies/set-sort-order`: new places for some strategies of a flag in one environment. */
import type { Cmd } from '../commands.js';
import type { Versioned } from '../result.js';
import type { CommandContext } from '../context.js';
import { fail, refuse, type Decision } from '../errors.js';
import type { ProjectEvent } from '../events.js';
import type { ProjectDraft } from '../project-state.js';
import type { StrategyOrder } from '../types.js';
import { acceptFlagChange, acceptOnFlag, flagInEnvironment } from './shared.js';

/**
 * Every listed id must be a strategy of the flag in that environment (404 naming the first that is not,
 * and nothing changes). Only the strategies whose `sortOrder` changes are recorded; a list that changes
 * nothing (empty, or the current places) is accepted without an event, so the flag keeps its version.
 */
export function decideSetSortOrder(draft: ProjectDraft, cmd: Cmd<'strategy.set-sort-order'>, context: CommandContext): Decision<ProjectEvent, Versioned<null>> {
  const t = flagInEnvironment(draft, cmd);
  if (!t.ok) return refuse(t.error);
  const current = new Map(t.value.entry.strategies.map((s) => [s.id, s.sortOrder]));
  const unknown = cmd.order.find((o) => !current.has(o.id));
  if (unknown) return refuse(fail('NotFoundError', `No strategy "${unknown.id}" on flag "${cmd.feature}" in environment "${cmd.environment}"`));
  const order: StrategyOrder[] = cmd.order.filter((o) => current.get(o.id) !== o.sortOrder).map((o) => ({ id: o.id, sortOrder: o.sortOrder }));
  if (order.length === 0) return acceptOnFlag([], null, t.value.flag, context);
  const before = order.map((o) => ({ id: o.id, sortOrder: current.get(o.id)! }));
  return acceptFlagChange(draft, t.value.flag, { type: 'strategies.sorted', name: t.value.flag.name, version: context.seq, environment: cmd.environment, order, before }, null, context);
}
