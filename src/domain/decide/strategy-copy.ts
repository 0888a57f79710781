/** `POST .../environments/:environment/strategies/copy`: a flag's strategies copied from another environment. */
import { randomUUID } from 'node:crypto';
import type { Cmd } from '../commands.js';
import type { Versioned } from '../result.js';
import type { ProjectContext } from '../context.js';
import { fail, failAt, refuse, type Decision } from '../errors.js';
import type { ProjectEvent } from '../events.js';
import { applyFlagEvent, ordered } from '../flag-events.js';
import type { ProjectDraft } from '../project-state.js';
import type { Strategy } from '../types.js';
import { acceptOnFlag, checkEnvironment, checkFlagSize, checkStrategyCount, environmentOf, flagInEnvironment } from './shared.js';
import { enabledAfter } from './strategies.js';

/**
 * Copies the strategies of the flag in `fromEnvironment` (all, or those `strategyIds` names, in their
 * order there) to the command's environment: new ids, placed after the strategies already there, every
 * other field kept. One `strategy.added` per copy. Like adding a strategy, a copy never enables the
 * environment. Refused as a whole: the same environment (400), an unknown or unconnected source (404), an
 * id that is not a strategy of the source (404), the strategies limit or the flag size (400).
 */
export function decideCopyStrategies(draft: ProjectDraft, cmd: Cmd<'strategy.copy'>, context: ProjectContext): Decision<ProjectEvent, Versioned<Strategy[]>> {
  const t = flagInEnvironment(draft, cmd);
  if (!t.ok) return refuse(t.error);
  if (cmd.fromEnvironment === cmd.environment) {
    return refuse(failAt('ValidationError', 'fromEnvironment', 'must differ from the environment the strategies are copied to'));
  }
  const sourceError = checkEnvironment(draft, cmd.fromEnvironment);
  if (sourceError) return refuse(sourceError);
  const source = ordered(environmentOf(t.value.flag, cmd.fromEnvironment).strategies);
  const wanted = cmd.strategyIds === undefined ? null : new Set(cmd.strategyIds);
  const unknown = cmd.strategyIds?.find((id) => !source.some((s) => s.id === id));
  if (unknown !== undefined) return refuse(fail('NotFoundError', `No strategy "${unknown}" on flag "${cmd.feature}" in environment "${cmd.fromEnvironment}"`));
  const picked = wanted ? source.filter((s) => wanted.has(s.id)) : source;
  const tooMany = checkStrategyCount(t.value.flag, cmd.environment, t.value.entry.strategies.length + picked.length, context);
  if (tooMany) return refuse(tooMany);
  let flag = t.value.flag;
  let highest = t.value.entry.strategies.reduce((max, s) => Math.max(max, s.sortOrder), -1);
  const events: ProjectEvent[] = [];
  const copies: Strategy[] = [];
  // The copies name only segments the flag already names, so no segment check is needed: one in use is not deleted.
  for (const original of picked) {
    highest += 1;
    const strategy: Strategy = { ...original, id: randomUUID(), sortOrder: highest, parameters: { ...original.parameters } };
    const entry = environmentOf(flag, cmd.environment);
    const event: ProjectEvent = { type: 'strategy.added', name: flag.name, version: context.seq, environment: cmd.environment, strategy, enabled: enabledAfter(entry, [...entry.strategies, strategy]) };
    flag = applyFlagEvent(flag, event)!;
    events.push(event);
    copies.push(strategy);
  }
  const tooLarge = checkFlagSize(flag, context);
  if (tooLarge) return refuse(tooLarge);
  return acceptOnFlag(events, copies, t.value.flag, context);
}
