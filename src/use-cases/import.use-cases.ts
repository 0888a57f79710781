/**
 * Import in Unleash 6.10's format (docs/api-decisions.md "Export and import"; docs/architecture.md "Export
 * and import"). Both the dry run and the import run in the registry's tag mailbox and then its segment
 * mailbox, so no tag type and no segment changes while one is decided. In there:
 *
 * 1. the service-side facts are read from the committed service state: segments renamed to their ids here
 *    (by name, as Unleash), context fields whose legal values clash, tag types and context fields to create,
 *    flags of the same name in other projects;
 * 2. the project mailbox decides the rest (`flags.import`, src/domain/decide/import.ts) and commits every
 *    flag in one record, which also marks the project with the definitions still to create;
 * 3. the service creates them and the mark is cleared (src/actors/import-settle.ts; a start after a crash
 *    finishes it).
 */
import type { Registry } from '../actors/registry.js';
import { settlePendingImport } from '../actors/import-settle.js';
import { isAllowed, principalLabel, type Principal } from '../auth/permissions.js';
import { rightsIn } from './send-command.js';
import { LIMIT_VARIABLES, overLimit } from '../limits.js';
import type { ContextField } from '../domain/definitions.js';
import type { ImportedFlag, ImportItem, ImportPlan, ImportReport } from '../domain/import-plan.js';
import { importRefused } from '../domain/decide/import.js';
import type { TagType } from '../domain/service-state.js';
import type { Dependency, StrategyInput, Tag, Variant } from '../domain/types.js';
import type { ImportBody } from '../schemas/import.schema.js';
import type { DryRunInput } from '../schemas/import-dry-run-parse.js';
import { failed, ok, type Result } from '../domain/result.js';

/** The answer of a dry run (Unleash's `importTogglesValidateSchema`). */
export interface ImportValidation {
  errors: ImportItem[];
  warnings: ImportItem[];
  permissions: ImportItem[];
}

/** What the import may do for this caller: create tag types and context fields, write flags in any project. */
const IMPORT_PERMISSION = 'UPDATE_DEFINITIONS';

/** The error item listing the schema issues of a dry run's body, each `where: why`. */
export const SCHEMA_ISSUES_MESSAGE = 'We detected the following parts of the import data that are not valid (where: why):';

/**
 * A dry run: every error and warning the import would meet, nothing changed. The body's schema issues, part by
 * part (`parseImportForDryRun`), are errors beside those of the checks, which run over the valid parts; without
 * a valid project or environment only the schema issues are answered. Unknown project: 404.
 *
 * @example await validateImport(registry, parseImportForDryRun(body), principal)
 */
export function validateImport(registry: Registry, input: DryRunInput, principal: Principal): Promise<Result<ImportValidation>> {
  return inImportMailboxes(registry, async () => {
    const permissions = isAllowed(principal, IMPORT_PERMISSION, undefined)
      ? [] : [{ message: 'We detected you are missing the following permissions:', affectedItems: [IMPORT_PERMISSION] }];
    const all: ImportItem[] = input.issues.length > 0 ? [{ message: SCHEMA_ISSUES_MESSAGE, affectedItems: input.issues }] : [];
    const warnings = (input.data.links as unknown[] | undefined)?.length ? [{ message: LINKS_WARNING, affectedItems: linkedFlags(input.data.links) }] : [];
    if (input.project === null) return ok({ errors: all, warnings, permissions });
    const found = registry.find(input.project);
    if (!found.ok) return failed(found.error);
    const { plan, errors } = planImport(registry, { project: input.project, environment: input.environment ?? '', data: input.data });
    // One entry per message: the service's findings and the project's may share one (the limits).
    all.push(...errors);
    if (input.environment === null) return ok({ errors: all, warnings, permissions });
    const decided = await found.value.send({ type: 'flags.import', plan, dryRun: true }, principalLabel(principal), rightsIn(found.value, principal));
    if (!decided.ok) return failed(decided.error);
    const add = adder(all);
    for (const item of decided.reply.errors) for (const affected of item.affectedItems) add(item.message, affected);
    return ok({ errors: all, warnings: [...decided.reply.warnings, ...warnings], permissions });
  });
}

const LINKS_WARNING = 'The following features have links (Unleash 8), which flagpole does not import:';

/** The flags an export's `links` name (`[{feature, links}]`). */
const linkedFlags = (links: unknown): string[] =>
  (Array.isArray(links) ? links : []).map((entry: unknown) => (entry as { feature?: unknown } | null)?.feature).filter((f): f is string => typeof f === 'string').slice(0, 100);

/**
 * Imports all of it or nothing: any error of the dry run is a 400 naming them, and nothing changes. Answers
 * what changed.
 */
export function importFeatures(registry: Registry, body: ImportBody, principal: Principal): Promise<Result<ImportReport>> {
  return inImportMailboxes(registry, async () => {
    const found = registry.find(body.project);
    if (!found.ok) return failed(found.error);
    const by = principalLabel(principal);
    // What an earlier import of the project left to create (its service write failed) is created first.
    const earlier = await settlePendingImport(registry, body.project, by);
    if (earlier) return failed(earlier);
    const { plan, errors } = planImport(registry, body);
    if (errors.length > 0) return failed(importRefused(errors));
    const decided = await found.value.send({ type: 'flags.import', plan, dryRun: false }, by, rightsIn(found.value, principal));
    if (!decided.ok) return failed(decided.error);
    const unsettled = await settlePendingImport(registry, body.project, by);
    // The flags are committed; what the service refused is retried at the next start (and logged there).
    if (unsettled) return failed(unsettled);
    return ok(decided.reply);
  });
}

function inImportMailboxes<T>(registry: Registry, task: () => Promise<T>): Promise<T> {
  return registry.tagWrites.run(() => registry.segmentWrites.run(task));
}

/** Adds `item` under `message`, one entry per message. */
function adder(items: ImportItem[]) {
  return (message: string, item: string) => {
    const existing = items.find((i) => i.message === message);
    if (existing) {
      if (!existing.affectedItems.includes(item)) existing.affectedItems.push(item);
    } else items.push({ message, affectedItems: [item] });
  };
}

/** The plan the project decides, and the errors found against the service (step 1 above). */
function planImport(registry: Registry, body: ImportBody): { plan: ImportPlan; errors: ImportItem[] } {
  const { data, project } = body;
  const service = registry.service.state;
  const errors: ImportItem[] = [];
  const error = adder(errors);

  // Segments: by name, global or of this project (Unleash's `remapSegments`).
  const segmentIds = new Map<number, number>();
  for (const segment of data.segments) {
    const here = Object.values(service.segments).find((s) => s.name === segment.name && (s.project === null || s.project === project));
    if (here) segmentIds.set(segment.id, here.id);
    else error('We detected the following segments that need to be created first:', segment.name);
  }

  // Context fields: new ones are created; present ones must hold every imported legal value (Unleash's `isValidField`).
  const newContextFields: ContextField[] = [];
  for (const field of data.contextFields) {
    const present = service.contextFields.find((f) => f.name === field.name);
    if (!present) {
      if (!newContextFields.some((f) => f.name === field.name)) {
        newContextFields.push({ name: field.name, description: field.description, stickiness: field.stickiness, sortOrder: field.sortOrder ?? 0, legalValues: field.legalValues, createdAt: null });
      }
    } else if (!field.legalValues.every((l) => present.legalValues.some((p) => p.value === l.value))) {
      error('We detected the following context fields that do not have matching legal values with the imported ones:', field.name);
    }
  }
  if (service.contextFields.length + newContextFields.length > registry.limits.contextFields) {
    error('We detected the following limits that the import would pass:', overLimit(`The number of context fields (${newContextFields.length} new)`, registry.limits.contextFields, LIMIT_VARIABLES.contextFields));
  }

  // Tag types: the ones the tags of flags to import use (an archived flag here is left alone, so are its tags,
  // as Unleash's `removeArchivedFeatures`); those missing here come from the import's `tagTypes`.
  const here = registry.project(project)?.state.flags;
  const newTagTypes: TagType[] = [];
  for (const type of new Set(data.featureTags.filter((t) => here?.get(t.featureName)?.archived !== true).map((t) => t.tagType))) {
    if (service.tagTypes.some((t) => t.name === type)) continue;
    const brought = data.tagTypes.find((t) => t.name === type);
    if (brought) newTagTypes.push({ name: brought.name, description: brought.description, icon: brought.icon, color: brought.color || null });
    else error('We detected the following tag types that need to be created first (the import does not list them in tagTypes):', type);
  }
  if (service.tagTypes.length + newTagTypes.length > registry.limits.tagTypes) {
    error('We detected the following limits that the import would pass:', overLimit(`The number of tag types (${newTagTypes.length} new)`, registry.limits.tagTypes, LIMIT_VARIABLES.tagTypes));
  }

  // Flags of the same name elsewhere (Unleash's names are global; its import refuses them).
  const names = new Set(data.features.map((f) => f.name));
  for (const id of registry.projectIds()) {
    if (id === project) continue;
    const flags = registry.project(id)!.state.flags;
    for (const name of names) if (flags.has(name)) error(`You cannot import a features that already exist in other projects. You already have the following features defined outside of project ${project}:`, `${name} (in project ${id})`);
  }

  // Everything else of a flag, grouped by flag; entries naming a flag the import does not list are errors.
  const unknown = (name: string) => error('We detected strategies, environments, tags or dependencies of features the import does not list:', name);
  const strategies = new Map<string, StrategyInput[]>();
  for (const { featureName, id: _id, createdAt: _c, lastSeenAt: _l, archivedAt: _a, createdByUserId: _u, milestoneId: _m, parameters, ...strategy } of data.featureStrategies) {
    if (!names.has(featureName)) { unknown(featureName); continue; }
    const segments = (strategy.segments ?? []).map((id) => {
      const local = segmentIds.get(id);
      if (local === undefined && !data.segments.some((s) => s.id === id)) error('We detected strategies naming segment ids the import does not list in segments:', String(id));
      return local ?? -1;
    });
    const input: StrategyInput = { ...strategy, segments: segments.filter((id) => id >= 0) };
    if (parameters) input.parameters = parameters;
    push(strategies, featureName, input);
  }
  const environments = new Map<string, { enabled: boolean; variants: Variant[] | null }>();
  for (const entry of data.featureEnvironments) {
    if (!names.has(entry.featureName)) { unknown(entry.featureName); continue; }
    environments.set(entry.featureName, { enabled: entry.enabled, variants: entry.variants });
  }
  const tags = new Map<string, Tag[]>();
  for (const tag of data.featureTags) {
    if (!names.has(tag.featureName)) { unknown(tag.featureName); continue; }
    push(tags, tag.featureName, { type: tag.tagType, value: tag.tagValue });
  }
  const dependencies = new Map<string, Dependency[]>();
  for (const entry of data.dependencies) {
    if (!names.has(entry.feature)) { unknown(entry.feature); continue; }
    for (const d of entry.dependencies) push(dependencies, entry.feature, d.enabled ? { feature: d.feature, enabled: true, variants: d.variants ?? [] } : { feature: d.feature, enabled: false });
  }

  const flags: ImportedFlag[] = data.features.map((feature) => ({
    name: feature.name,
    description: feature.description ?? '',
    type: feature.type,
    stale: feature.stale ?? false,
    impressionData: feature.impressionData ?? false,
    strategies: strategies.get(feature.name) ?? [],
    enabled: environments.get(feature.name)?.enabled,
    variants: environments.get(feature.name)?.variants ?? null,
    tags: tags.get(feature.name) ?? [],
    dependencies: dependencies.get(feature.name) ?? [],
  }));
  return { plan: { environment: body.environment, flags, newContextFields, newTagTypes }, errors };
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
