import { randomUUID } from 'node:crypto';
import * as v from 'valibot';
import { stepEnvironment } from '../../../machines/step.js';
import { StrategyRecordSchema } from '../../schemas/strategy.schema.js';
import type { CommandContext } from '../context.js';
import type { ProjectCommand } from '../commands.js';
import { accept, fail, refuse, type Decision } from '../errors.js';
import type { ProjectEvent } from '../events.js';
import { applyJsonPatch } from '../json-patch.js';
import type { ProjectDraft } from '../project-state.js';
import type { Flag, FlagEnvironment, Strategy, StrategyInput } from '../types.js';
import { checkEnvironment, enabledCount, environmentOf, flagForChange, invalid, reviseEnvironment } from './shared.js';

type Cmd<T extends ProjectCommand['type']> = Extract<ProjectCommand, { type: T }>;
export type StrategyDecision = Decision<ProjectEvent, Strategy | null>;

/**
 * A stored strategy from a request: defaults of API-DECISIONS "Strategies", and for a gradual rollout the
 * `rollout`, `stickiness` and `groupId` parameters Unleash fills in.
 */
export function buildStrategy(input: StrategyInput, flagName: string, id: string, sortOrder: number): Strategy {
  const parameters = { ...(input.parameters ?? {}) };
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
    variants: input.variants ?? [],
    segments: input.segments ?? [],
  };
}

/** Strategies in evaluation order; equal sortOrders keep insertion order (Array.sort is stable). */
const ordered = (strategies: Strategy[]) => [...strategies].sort((a, b) => a.sortOrder - b.sortOrder);

/** Replaces an environment's strategies and lets the environment machine keep "enabled implies a strategy". */
export function withStrategies(entry: FlagEnvironment, strategies: Strategy[]): FlagEnvironment {
  const next = { enabled: entry.enabled, strategies: ordered(strategies) };
  const step = stepEnvironment(entry.enabled, enabledCount(entry), { type: 'strategies.changed', enabledStrategies: enabledCount(next) });
  return { ...next, enabled: step?.enabled ?? entry.enabled };
}

function target(draft: ProjectDraft, cmd: Cmd<'strategy.add' | 'strategy.update' | 'strategy.patch' | 'strategy.delete'>) {
  const found = flagForChange(draft, cmd.feature, cmd.ifMatch);
  if (!found.ok) return found;
  const envError = checkEnvironment(draft, cmd.environment);
  if (envError) return { ok: false as const, error: envError };
  return { ok: true as const, flag: found.value, entry: environmentOf(found.value, cmd.environment) };
}

function findStrategy(entry: FlagEnvironment, cmd: { strategyId: string; feature: string; environment: string }) {
  const strategy = entry.strategies.find((s) => s.id === cmd.strategyId);
  return strategy ?? fail('NotFoundError', `No strategy "${cmd.strategyId}" on flag "${cmd.feature}" in environment "${cmd.environment}"`);
}

function changed(flag: Flag, cmd: { environment: string }, entry: FlagEnvironment, type: 'strategy.added' | 'strategy.updated' | 'strategy.deleted', context: CommandContext): ProjectEvent {
  return { type, flag: reviseEnvironment(flag, cmd.environment, entry, context), before: flag, environment: cmd.environment };
}

export function decideAddStrategy(draft: ProjectDraft, cmd: Cmd<'strategy.add'>, context: CommandContext): StrategyDecision {
  const t = target(draft, cmd);
  if (!t.ok) return refuse(t.error);
  const highest = t.entry.strategies.reduce((max, s) => Math.max(max, s.sortOrder), -1);
  const strategy = buildStrategy(cmd.strategy, t.flag.name, randomUUID(), cmd.strategy.sortOrder ?? highest + 1);
  const entry = withStrategies(t.entry, [...t.entry.strategies, strategy]);
  return accept([changed(t.flag, cmd, entry, 'strategy.added', context)], strategy);
}

export function decideUpdateStrategy(draft: ProjectDraft, cmd: Cmd<'strategy.update'>, context: CommandContext): StrategyDecision {
  const t = target(draft, cmd);
  if (!t.ok) return refuse(t.error);
  const current = findStrategy(t.entry, cmd);
  if (!('id' in current)) return refuse(current);
  const strategy = buildStrategy(cmd.strategy, t.flag.name, current.id, current.sortOrder);
  const entry = withStrategies(t.entry, t.entry.strategies.map((s) => (s.id === current.id ? strategy : s)));
  return accept([changed(t.flag, cmd, entry, 'strategy.updated', context)], strategy);
}

export function decidePatchStrategy(draft: ProjectDraft, cmd: Cmd<'strategy.patch'>, context: CommandContext): StrategyDecision {
  const t = target(draft, cmd);
  if (!t.ok) return refuse(t.error);
  const current = findStrategy(t.entry, cmd);
  if (!('id' in current)) return refuse(current);
  const patched = applyJsonPatch(current, cmd.operations);
  if (!patched.ok) return refuse(patched.error);
  const parsed = v.safeParse(StrategyRecordSchema, patched.value);
  if (!parsed.success) return refuse(invalid(parsed.issues));
  if (parsed.output.id !== undefined && parsed.output.id !== current.id) {
    return refuse(fail('ValidationError', '"id": the id of a strategy cannot be changed'));
  }
  const strategy = buildStrategy(parsed.output, t.flag.name, current.id, parsed.output.sortOrder ?? current.sortOrder);
  const entry = withStrategies(t.entry, t.entry.strategies.map((s) => (s.id === current.id ? strategy : s)));
  return accept([changed(t.flag, cmd, entry, 'strategy.updated', context)], strategy);
}

export function decideDeleteStrategy(draft: ProjectDraft, cmd: Cmd<'strategy.delete'>, context: CommandContext): StrategyDecision {
  const t = target(draft, cmd);
  if (!t.ok) return refuse(t.error);
  const current = findStrategy(t.entry, cmd);
  if (!('id' in current)) return refuse(current);
  const entry = withStrategies(t.entry, t.entry.strategies.filter((s) => s.id !== current.id));
  return accept([changed(t.flag, cmd, entry, 'strategy.deleted', context)], null);
}
