/**
 * An import in Unleash 6.10's format, decided in the project mailbox (docs/api-decisions.md "Export and
 * import"): every rule a flag, strategy, tag or dependency write would check here is checked for every
 * imported flag against the draft, and the import is one record of events or nothing. A dry run decides the
 * same and records nothing. The service-side facts (segments renamed to ids, the definitions it creates) come
 * in the plan, built by the use case in the tag and segment mailboxes.
 */
import { randomUUID } from 'node:crypto';
import { flagRules } from '../../../machines/flag-rules.js';
import { LIMIT_VARIABLES, overLimit } from '../../limits.js';
import { distributeWeights } from '../../schemas/variant.schema.js';
import type { Cmd } from '../commands.js';
import type { ProjectContext } from '../context.js';
import { BUILT_IN_STRATEGIES, illegalValue, type ContextField } from '../definitions.js';
import { dict, own } from '../dict.js';
import { accept, fail, refuse, type Decision } from '../errors.js';
import type { ProjectEvent } from '../events.js';
import { enabledCount, ordered, sameTag } from '../flag-events.js';
import type { ImportedFlag, ImportItem, ImportReport } from '../import-plan.js';
import type { ProjectDraft } from '../project-state.js';
import type { Dependency, Flag, FlagEnvironment, Strategy, StrategyInput, Tag } from '../types.js';
import { checkSegmentRefs } from './segment-refs.js';
import { checkFlagSize } from './shared.js';
import { buildStrategy } from './strategies.js';

/** Items of one kind of problem, gathered under one message (at most 100 named, as a dry run lists them). */
class Items {
  private readonly byMessage = new Map<string, string[]>();
  add(message: string, item: string): void {
    const items = this.byMessage.get(message) ?? [];
    if (!items.includes(item)) items.push(item);
    this.byMessage.set(message, items);
  }
  list(): ImportItem[] {
    return [...this.byMessage].map(([message, affectedItems]) => ({ message, affectedItems }));
  }
  get size(): number {
    return this.byMessage.size;
  }
}

const MESSAGES = {
  environment: (env: string, project: string) => `Environment "${env}" is not enabled for project "${project}":`,
  duplicate: 'We detected the following features are duplicate in your import data:',
  strategy: 'We detected the following custom strategy that needs to be created first:',
  legal: 'We detected the following constraint values that are not legal values of their context field (flag: field=value):',
  segment: 'We detected the following strategies naming segments that cannot be used in this project (flag: reason):',
  dependency: 'We detected the following dependencies that need to be created first:',
  dependencyRule: 'We detected the following dependencies that break the dependency rules (one level, no flag its own parent; flag: reason):',
  unknownFlag: 'We detected strategies, environments, tags or dependencies of features the import does not list:',
  limit: 'We detected the following limits that the import would pass:',
  customUsed: 'The following strategy types will be used in import. Please make sure the strategy type parameters are configured as in source environment:',
  archived: 'The following features will not be imported as they are currently archived. To import them, please unarchive them first:',
  existing: 'The following features already exist in this project and will be overwritten:',
  disabled: 'The following features are enabled in the import without an enabled strategy, and the environment has no default strategy: they will be imported disabled:',
} as const;

/**
 * Decides an import: the report, and (unless a dry run, and only without errors) one event per changed flag,
 * plus the project's `pendingImport` when the service still has to create tag types or context fields.
 */
export function decideImport(draft: ProjectDraft, cmd: Cmd<'flags.import'>, context: ProjectContext): Decision<ProjectEvent, ImportReport> {
  const { plan } = cmd;
  const errors = new Items();
  const warnings = new Items();
  const project = draft.meta.id;
  if (!draft.meta.environments.includes(plan.environment)) errors.add(MESSAGES.environment(plan.environment, project), plan.environment);

  const seen = new Set<string>();
  const created: string[] = [];
  const updated: string[] = [];
  const skipped: string[] = [];
  const imported: ImportedFlag[] = [];
  for (const flag of plan.flags) {
    if (seen.has(flag.name)) {
      errors.add(MESSAGES.duplicate, flag.name);
      continue;
    }
    seen.add(flag.name);
    const current = draft.getFlag(flag.name);
    if (current?.archived) {
      skipped.push(flag.name);
      warnings.add(MESSAGES.archived, flag.name);
      continue;
    }
    (current ? updated : created).push(flag.name);
    if (current) warnings.add(MESSAGES.existing, flag.name);
    imported.push(flag);
  }
  const { flagsPerProject, strategiesPerEnvironment, tagsPerFlag, parentsPerFlag } = context.limits;
  if (created.length > 0 && draft.flagCount() + created.length > flagsPerProject) {
    errors.add(MESSAGES.limit, overLimit(`The number of flags in project "${project}" (${draft.flagCount()} + ${created.length} new)`, flagsPerProject, LIMIT_VARIABLES.flagsPerProject));
  }

  const newFields = new Map(plan.newContextFields.map((f) => [f.name, f]));
  for (const flag of imported) {
    if (flag.strategies.length > strategiesPerEnvironment) {
      errors.add(MESSAGES.limit, overLimit(`The number of strategies of flag "${flag.name}" in environment "${plan.environment}" (${flag.strategies.length})`, strategiesPerEnvironment, LIMIT_VARIABLES.strategiesPerEnvironment));
    }
    if (flag.tags.length > tagsPerFlag) {
      errors.add(MESSAGES.limit, overLimit(`The number of tags of flag "${flag.name}" (${flag.tags.length})`, tagsPerFlag, LIMIT_VARIABLES.tagsPerFlag));
    }
    for (const strategy of flag.strategies) checkStrategy(draft, flag.name, strategy, newFields, context, errors, warnings);
  }
  checkDependencies(draft, imported, seen, parentsPerFlag, errors);

  // The flags as they will be: built even in a dry run, so the size limit is reported there too.
  const events: ProjectEvent[] = [];
  for (const flag of imported) {
    const current = draft.getFlag(flag.name);
    const next = importedFlag(draft, current, flag, plan.environment, context, warnings);
    const tooLarge = checkFlagSize(next, context);
    if (tooLarge) errors.add(MESSAGES.limit, tooLarge.message);
    events.push(current ? { type: 'flag.imported', name: flag.name, version: context.seq, flag: next, before: current } : { type: 'flag.created', flag: next });
  }

  const report: ImportReport = { created, updated, skipped, errors: errors.list(), warnings: warnings.list() };
  if (cmd.dryRun) return accept([], report);
  if (errors.size > 0) return refuse(importRefused(report.errors));
  if (plan.newTagTypes.length > 0 || plan.newContextFields.length > 0) {
    // Added to what an earlier import may still have pending, so settling one settles both.
    const before = draft.meta;
    const pending = before.pendingImport ?? { tagTypes: [], contextFields: [] };
    const pendingImport = {
      tagTypes: [...pending.tagTypes, ...plan.newTagTypes.filter((t) => !pending.tagTypes.some((p) => p.name === t.name))],
      contextFields: [...pending.contextFields, ...plan.newContextFields.filter((f) => !pending.contextFields.some((p) => p.name === f.name))],
    };
    events.unshift({ type: 'project.updated', before, meta: { ...before, pendingImport } });
  }
  return accept(events, report);
}

/** Clears `meta.pendingImport` once the service holds what the import brought. */
export function decideSettleImport(draft: ProjectDraft, _cmd: Cmd<'import.settle'>): Decision<ProjectEvent, null> {
  if (!draft.meta.pendingImport) return accept([], null);
  const { pendingImport: _done, ...meta } = draft.meta;
  return accept([{ type: 'project.updated', before: draft.meta, meta }], null);
}

/** The 400 of an import with errors: one detail per error, naming its first items. */
export function importRefused(errors: readonly ImportItem[]) {
  const details = errors.map((e) => ({ message: `${e.message} ${e.affectedItems.slice(0, 20).join(', ')}${e.affectedItems.length > 20 ? `, and ${e.affectedItems.length - 20} more` : ''}` }));
  return fail('ValidationError', `The import was refused and nothing was changed: ${errors.length} error${errors.length === 1 ? '' : 's'} (see details; POST /api/admin/features-batch/validate lists them all)`, details);
}

/** The checks `strategy.add` makes: a definition names it, legal constraint values, usable segments. */
function checkStrategy(draft: ProjectDraft, flag: string, strategy: StrategyInput, newFields: Map<string, ContextField>, context: ProjectContext, errors: Items, warnings: Items): void {
  const definition = context.lookups ? context.lookups.strategyDefinition(strategy.name) : BUILT_IN_STRATEGIES.find((d) => d.name === strategy.name);
  if (!definition) errors.add(MESSAGES.strategy, strategy.name);
  else if (definition.editable) warnings.add(MESSAGES.customUsed, strategy.name);
  for (const constraint of strategy.constraints ?? []) {
    const field = context.lookups?.contextField(constraint.contextName) ?? newFields.get(constraint.contextName);
    if (!field) continue;
    const values = constraint.value !== undefined && !constraint.values?.length ? [constraint.value] : (constraint.values ?? []);
    const bad = illegalValue(field, values);
    if (bad !== undefined) errors.add(MESSAGES.legal, `${flag}: ${field.name}=${bad}`);
  }
  const segmentError = checkSegmentRefs(draft, strategy.segments, undefined, context);
  if (segmentError) errors.add(MESSAGES.segment, `${flag}: ${segmentError.message.replace(/^"segments": /, '')}`);
}

/**
 * Unleash's dependency rules over the project as it will be: a parent is an active flag of the project (here
 * or imported), never the flag itself, has no parent of its own, and a child is nobody's parent.
 */
function checkDependencies(draft: ProjectDraft, imported: readonly ImportedFlag[], listed: ReadonlySet<string>, parentsPerFlag: number, errors: Items): void {
  if (!imported.some((f) => f.dependencies.length > 0)) return;
  const importedByName = new Map(imported.map((f) => [f.name, f]));
  const parentsAfter = (name: string): Dependency[] => {
    const current = draft.getFlag(name)?.dependencies ?? [];
    const flag = importedByName.get(name);
    return flag ? merged(current, flag.dependencies) : current;
  };
  for (const flag of imported) {
    const parents = parentsAfter(flag.name);
    if (parents.length > parentsPerFlag) errors.add(MESSAGES.limit, overLimit(`The number of parents of flag "${flag.name}" (${parents.length})`, parentsPerFlag, LIMIT_VARIABLES.parentsPerFlag));
    for (const dependency of flag.dependencies) {
      const parent = dependency.feature;
      const here = draft.getFlag(parent);
      if (parent === flag.name) errors.add(MESSAGES.dependencyRule, `${flag.name}: depends on itself`);
      else if (!importedByName.has(parent) && (!here || here.archived)) {
        errors.add(listed.has(parent) ? MESSAGES.dependencyRule : MESSAGES.dependency, listed.has(parent) ? `${flag.name}: parent "${parent}" is archived` : parent);
      } else if (parentsAfter(parent).length > 0) errors.add(MESSAGES.dependencyRule, `${flag.name}: parent "${parent}" has a parent of its own`);
    }
  }
  // A flag that becomes a parent must not have parents (imported flags are checked above as children).
  const parentNames = new Set(imported.flatMap((f) => f.dependencies.map((d) => d.feature)));
  for (const name of parentNames) {
    if (importedByName.has(name)) continue;
    if ((draft.getFlag(name)?.dependencies ?? []).length > 0) errors.add(MESSAGES.dependencyRule, `${name}: is a parent and has a parent of its own`);
  }
  const children = draft.hasDependencies() ? draft.flagsWhere((f) => !f.archived && (f.dependencies ?? []).some((d) => importedByName.get(d.feature)?.dependencies.length)) : [];
  for (const child of children) if (!importedByName.has(child)) errors.add(MESSAGES.dependencyRule, `${child}: depends on a flag the import gives a parent`);
}

/** `current` with `added` upserted by parent name (Unleash's `upsertFeatureDependency`). */
function merged(current: readonly Dependency[], added: readonly Dependency[]): Dependency[] {
  const byParent = new Map(current.map((d) => [d.feature, d]));
  for (const d of added) byParent.set(d.feature, d.enabled ? { feature: d.feature, enabled: true, variants: [...new Set(d.variants ?? [])] } : { feature: d.feature, enabled: false });
  return [...byParent.values()];
}

/** The flag after the import: metadata, the environment's strategies, on/off and variants, tags, parents. */
function importedFlag(draft: ProjectDraft, current: Flag | undefined, flag: ImportedFlag, environment: string, context: ProjectContext, warnings: Items): Flag {
  const base: Flag = current ?? {
    name: flag.name, description: '', type: flag.type, stale: false, impressionData: false, createdAt: context.at, lastSeenAt: null,
    ...flagRules.newFlag(), archivedAt: null, variants: [], version: context.seq,
    environments: dict(draft.meta.environments.map((env): [string, FlagEnvironment] => [env, { ...flagRules.newEnvironment(), strategies: [] }])),
    createdBy: context.by,
  };
  let strategies: Strategy[] = ordered(flag.strategies.map((s, i) => buildStrategy(s, flag.name, randomUUID(), s.sortOrder ?? i)));
  const wasEnabled = own(base.environments, environment)?.enabled ?? false;
  let enabled = flag.enabled ?? wasEnabled;
  if (enabled && enabledCount({ strategies }) === 0) {
    const fallback = own(draft.meta.defaultStrategies, environment);
    if (fallback && flag.enabled === true) {
      const parameters = fallback.parameters?.['groupId'] !== undefined ? { ...fallback.parameters, groupId: flag.name } : fallback.parameters;
      strategies = [...strategies, buildStrategy({ ...fallback, ...(parameters ? { parameters } : {}) }, flag.name, randomUUID(), strategies.length)];
    } else {
      if (flag.enabled === true) warnings.add(MESSAGES.disabled, flag.name);
      enabled = false;
    }
  }
  const environments = draft.meta.environments.includes(environment)
    ? dict([...Object.entries(base.environments), [environment, { enabled, strategies }] as [string, FlagEnvironment]])
    : base.environments;
  const tags: Tag[] = [];
  for (const tag of flag.tags) if (!tags.some((t) => sameTag(t, tag))) tags.push({ type: tag.type, value: tag.value });
  return {
    ...base,
    description: flag.description,
    type: flag.type,
    stale: flag.stale,
    impressionData: flag.impressionData,
    variants: flag.variants && flag.variants.length > 0 ? distributeWeights(flag.variants) : base.variants,
    version: context.seq,
    environments,
    tags,
    dependencies: merged(base.dependencies ?? [], flag.dependencies),
  };
}
