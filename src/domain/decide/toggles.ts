import { randomUUID } from 'node:crypto';
import { flagRules } from '../../../machines/flag-rules.js';
import type { CommandContext, ProjectContext } from '../context.js';
import type { Cmd } from '../commands.js';
import type { Versioned } from '../result.js';
import { own, withKey } from '../dict.js';
import { accept, fail, refuse, type Decision } from '../errors.js';
import type { ProjectEvent } from '../events.js';
import type { ProjectDraft } from '../project-state.js';
import type { Strategy, StrategyInput } from '../types.js';
import { acceptFlagChange, acceptOnFlag, checkEnvironment, checkStrategyCount, enabledCount, flagInEnvironment } from './shared.js';
import { checkSegmentRefs } from './segment-refs.js';
import { checkDefinitions } from './definition-refs.js';
import { buildStrategy } from './strategies.js';

/**
 * `/on`: the environment machine enables only with an enabled strategy. With `activateDisabled` (Unleash's
 * `shouldActivateDisabledStrategies`), every disabled strategy of the environment is enabled with it. Without an
 * enabled strategy then, the environment's default strategy (docs/admin-contract.md §4.16) is added first; without
 * that, a 100% gradual rollout when the command asks for one (`rolloutWithoutDefault`, the console's offer), else 409.
 */
export function decideEnable(draft: ProjectDraft, cmd: Cmd<'flag.enable'>, context: CommandContext): Decision<ProjectEvent, Versioned<null>> {
  const t = flagInEnvironment(draft, cmd);
  if (!t.ok) return refuse(t.error);
  const { flag, entry } = t.value;
  let added: Strategy | null = null;
  const activated = cmd.activateDisabled ? entry.strategies.filter((s) => s.disabled === true).map((s) => s.id) : [];
  let count = enabledCount(entry) + activated.length;
  if (flagRules.enable(entry.enabled, count) === null) {
    const fallback = own(draft.meta.defaultStrategies, cmd.environment) ?? (cmd.rolloutWithoutDefault ? fullRollout(draft.meta.defaultStickiness) : undefined);
    if (fallback) {
      const tooMany = checkStrategyCount(flag, cmd.environment, entry.strategies.length + 1, context);
      if (tooMany) return refuse(tooMany);
      const highest = entry.strategies.reduce((max, s) => Math.max(max, s.sortOrder), -1);
      added = buildStrategy(withGroupId(fallback, flag.name), flag.name, randomUUID(), highest + 1);
      count = enabledCount({ strategies: [...entry.strategies, added] }) + activated.length;
    }
  }
  const step = flagRules.enable(entry.enabled, count);
  if (step === null) {
    return refuse(fail('InvalidOperationError', `Flag "${flag.name}" has no enabled strategy in environment "${cmd.environment}" and the environment has no default strategy; add a strategy first`));
  }
  if (added === null && activated.length === 0 && step.enabled === entry.enabled) return acceptOnFlag([], null, flag, context);
  const event: ProjectEvent = activated.length > 0
    ? { type: 'flag.enabled', name: flag.name, version: context.seq, environment: cmd.environment, added, activated }
    : { type: 'flag.enabled', name: flag.name, version: context.seq, environment: cmd.environment, added };
  // Switching on alone flips a boolean: the flag does not grow, so only an added strategy or activated ones
  // (each `disabled: true` becomes `false`) need the size limit checked.
  if (added === null && activated.length === 0) return acceptOnFlag([event], null, flag, context);
  return acceptFlagChange(draft, flag, event, null, context);
}

/** A gradual rollout to everyone, by the project's default stickiness (grouped by the flag's name once applied). */
function fullRollout(stickiness: string | undefined): StrategyInput {
  return { name: 'flexibleRollout', parameters: { rollout: '100', stickiness: stickiness ?? 'default', groupId: '' }, constraints: [] };
}

/** A default strategy applied to a flag rolls out by that flag's name. */
function withGroupId(strategy: StrategyInput, flagName: string): StrategyInput {
  if (strategy.parameters?.['groupId'] === undefined) return strategy;
  return { ...strategy, parameters: { ...strategy.parameters, groupId: flagName } };
}

export function decideDisable(draft: ProjectDraft, cmd: Cmd<'flag.disable'>, context: CommandContext): Decision<ProjectEvent, Versioned<null>> {
  const t = flagInEnvironment(draft, cmd);
  if (!t.ok) return refuse(t.error);
  const { flag, entry } = t.value;
  const step = flagRules.disable(entry.enabled, enabledCount(entry));
  if (step === null || step.enabled === entry.enabled) return acceptOnFlag([], null, flag, context);
  return acceptOnFlag([{ type: 'flag.disabled', name: flag.name, version: context.seq, environment: cmd.environment }], null, flag, context);
}

/**
 * Sets the default strategy of one environment of the project, or of all of them with `*`. Its segments must
 * exist and be usable here, as a strategy's: `/on` copies it into a flag.
 */
export function decideDefaultStrategy(draft: ProjectDraft, cmd: Cmd<'default-strategy.set'>, context: ProjectContext): Decision<ProjectEvent, StrategyInput> {
  const targets = cmd.environment === '*' ? draft.meta.environments : [cmd.environment];
  if (cmd.environment !== '*') {
    const envError = checkEnvironment(draft, cmd.environment);
    if (envError) return refuse(envError);
  }
  const undefinedName = checkDefinitions(cmd.strategy, context);
  if (undefinedName) return refuse(undefinedName);
  for (const env of targets) {
    const current = own(draft.meta.defaultStrategies, env);
    const badSegment = checkSegmentRefs(draft, cmd.strategy.segments, current?.segments, context);
    if (badSegment) return refuse(badSegment);
  }
  let defaultStrategies = draft.meta.defaultStrategies;
  for (const env of targets) defaultStrategies = withKey(defaultStrategies, env, cmd.strategy);
  const meta = { ...draft.meta, defaultStrategies };
  return accept([{ type: 'project.updated', meta, before: draft.meta }], cmd.strategy);
}
