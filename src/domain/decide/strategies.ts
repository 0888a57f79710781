import { randomUUID } from 'node:crypto';
import { safeParseCapped } from '../../schemas/capped-parse.js';
import { flagRules } from '../../../machines/flag-rules.js';
import { StrategyRecordSchema } from '../../schemas/strategy.schema.js';
import { distributeWeights } from '../../schemas/variant.schema.js';
import type { CommandContext, ProjectContext } from '../context.js';
import type { Cmd } from '../commands.js';
import type { Versioned } from '../result.js';
import { fail, failAt, refuse, type Decision } from '../errors.js';
import type { ProjectEvent } from '../events.js';
import { dict } from '../dict.js';
import { applyJsonPatch } from '../json-patch.js';
import type { ProjectDraft } from '../project-state.js';
import type { Flag, FlagEnvironment, Strategy, StrategyInput } from '../types.js';
import { checkDefinitions } from './definition-refs.js';
import { checkSegmentRefs } from './segment-refs.js';
import { acceptFlagChange, acceptOnFlag, checkStrategyCount, enabledCount, flagInEnvironment, invalid } from './shared.js';

export type StrategyDecision<T = Strategy> = Decision<ProjectEvent, Versioned<T>>;

/**
 * A stored strategy from a request: defaults of docs/api-decisions.md "Strategies", and for a gradual rollout the
 * `rollout`, `stickiness` and `groupId` parameters Unleash fills in.
 */
export function buildStrategy(input: StrategyInput, flagName: string, id: string, sortOrder: number): Strategy {
  // A copy of its own, made once: the defaults are set on it.
  const parameters = dict(input.parameters ?? {});
  if (input.name === 'flexibleRollout') {
    parameters['rollout'] ??= '100';
    parameters['stickiness'] ??= 'default';
    parameters['groupId'] ??= flagName;
  }
  return {
    id,
    name: input.name,
    title: input.title ?? null,
    disabled: input.disabled ?? false,
    sortOrder,
    constraints: input.constraints ?? [],
    parameters,
    variants: distributeWeights(input.variants ?? []),
    segments: input.segments ?? [],
  };
}

/** The environment's `enabled` after its strategies change: the environment machine keeps "enabled implies a strategy". */
export function enabledAfter(entry: FlagEnvironment, strategies: Strategy[]): boolean {
  return flagRules.afterStrategies(entry.enabled, enabledCount({ strategies }), enabledCount(entry))?.enabled ?? entry.enabled;
}

function findStrategy(entry: FlagEnvironment, cmd: { strategyId: string; feature: string; environment: string }) {
  const strategy = entry.strategies.find((s) => s.id === cmd.strategyId);
  return strategy ?? fail('NotFoundError', `No strategy "${cmd.strategyId}" on flag "${cmd.feature}" in environment "${cmd.environment}"`);
}

function replaced(draft: ProjectDraft, t: { flag: Flag; entry: FlagEnvironment }, cmd: { environment: string }, current: Strategy, strategy: Strategy, context: CommandContext): StrategyDecision {
  const enabled = enabledAfter(t.entry, t.entry.strategies.map((s) => (s.id === current.id ? strategy : s)));
  return acceptFlagChange(draft, t.flag, { type: 'strategy.updated', name: t.flag.name, version: context.seq, environment: cmd.environment, strategy, before: current, enabled }, strategy, context);
}

export function decideAddStrategy(draft: ProjectDraft, cmd: Cmd<'strategy.add'>, context: ProjectContext): StrategyDecision {
  const t = flagInEnvironment(draft, cmd);
  if (!t.ok) return refuse(t.error);
  const badSegment = checkSegmentRefs(draft, cmd.strategy.segments, [], context) ?? checkDefinitions(cmd.strategy, context);
  if (badSegment) return refuse(badSegment);
  const highest = t.value.entry.strategies.reduce((max, s) => Math.max(max, s.sortOrder), -1);
  const tooMany = checkStrategyCount(t.value.flag, cmd.environment, t.value.entry.strategies.length + 1, context);
  if (tooMany) return refuse(tooMany);
  const strategy = buildStrategy(cmd.strategy, t.value.flag.name, randomUUID(), cmd.strategy.sortOrder ?? highest + 1);
  const enabled = enabledAfter(t.value.entry, [...t.value.entry.strategies, strategy]);
  return acceptFlagChange(draft, t.value.flag, { type: 'strategy.added', name: t.value.flag.name, version: context.seq, environment: cmd.environment, strategy, enabled }, strategy, context);
}

export function decideUpdateStrategy(draft: ProjectDraft, cmd: Cmd<'strategy.update'>, context: ProjectContext): StrategyDecision {
  const t = flagInEnvironment(draft, cmd);
  if (!t.ok) return refuse(t.error);
  const current = findStrategy(t.value.entry, cmd);
  if (!('id' in current)) return refuse(current);
  const badSegment = checkSegmentRefs(draft, cmd.strategy.segments, current.segments, context) ?? checkDefinitions(cmd.strategy, context);
  if (badSegment) return refuse(badSegment);
  const strategy = buildStrategy(cmd.strategy, t.value.flag.name, current.id, current.sortOrder);
  return replaced(draft, t.value, cmd, current, strategy, context);
}

export function decidePatchStrategy(draft: ProjectDraft, cmd: Cmd<'strategy.patch'>, context: ProjectContext): StrategyDecision {
  const t = flagInEnvironment(draft, cmd);
  if (!t.ok) return refuse(t.error);
  const current = findStrategy(t.value.entry, cmd);
  if (!('id' in current)) return refuse(current);
  // An empty patch changes nothing: no event, the flag keeps its version.
  if (cmd.operations.length === 0) return acceptOnFlag([], current, t.value.flag, context);
  const patched = applyJsonPatch(current, cmd.operations);
  if (!patched.ok) return refuse(patched.error);
  const parsed = safeParseCapped(StrategyRecordSchema, patched.value);
  if (!parsed.success) return refuse(invalid(parsed.issues, parsed.capped));
  if (parsed.output.id !== undefined && parsed.output.id !== current.id) {
    return refuse(failAt('ValidationError', 'id', 'the id of a strategy cannot be changed'));
  }
  const badSegment = checkSegmentRefs(draft, parsed.output.segments, current.segments, context) ?? checkDefinitions(parsed.output, context);
  if (badSegment) return refuse(badSegment);
  const strategy = buildStrategy(parsed.output, t.value.flag.name, current.id, parsed.output.sortOrder ?? current.sortOrder);
  return replaced(draft, t.value, cmd, current, strategy, context);
}

export function decideDeleteStrategy(draft: ProjectDraft, cmd: Cmd<'strategy.delete'>, context: CommandContext): StrategyDecision<null> {
  const t = flagInEnvironment(draft, cmd);
  if (!t.ok) return refuse(t.error);
  const current = findStrategy(t.value.entry, cmd);
  if (!('id' in current)) return refuse(current);
  const enabled = enabledAfter(t.value.entry, t.value.entry.strategies.filter((s) => s.id !== current.id));
  return acceptFlagChange(draft, t.value.flag, { type: 'strategy.deleted', name: t.value.flag.name, version: context.seq, environment: cmd.environment, before: current, enabled }, null, context);
}
