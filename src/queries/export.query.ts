/**
 * `POST /api/admin/features-batch/export` (docs/api-decisions.md "Export and import"): flags of the committed
 * states in Unleash 6.10's export format (its `exportResultSchema`), for one environment. Flags are chosen
 * as Unleash does: by tag value (`tag`) if given, else by names (`features`, non-empty), else by `project`,
 * else every flag; flags named or tagged are exported archived or not, a project's or all flags only when
 * active. Read from the last published states; no mailbox is waited for.
 */
import type { Registry } from '../actors/registry.js';
import type { ContextField } from '../domain/definitions.js';
import { fail } from '../domain/errors.js';
import type { Flag, Strategy } from '../domain/types.js';
import { SHAPE_LIMITS } from '../limits.js';
import type { ExportQuery } from '../schemas/import.schema.js';
import { failed, ok, type Result } from '../domain/result.js';

/** One flag with its project. */
interface Held {
  project: string;
  flag: Flag;
}

/** The export, shaped as Unleash 6.10's (field order included). */
export interface ExportResult {
  features: { name: string; description: string | null; type: string; project: string; stale: boolean; impressionData: boolean; archived: boolean }[];
  featureStrategies: (Omit<Strategy, 'sortOrder'> & { featureName: string })[];
  featureEnvironments: { enabled: boolean; featureName: string; environment: string; variants: Partial<Flag['variants'][number]>[]; name: string }[];
  contextFields: Omit<ContextField, 'createdAt'>[];
  featureTags: { featureName: string; tagType: string; tagValue: string }[];
  segments: { id: number; name: string }[];
  tagTypes: { name: string; description: string; icon: string | null; color: string | null }[];
  dependencies: { feature: string; dependencies: { feature: string; enabled: boolean; variants: string[] }[] }[];
}

/**
 * The export of the chosen flags in `query.environment`. Unknown environment or project: 404; more flags
 * than one import takes (`SHAPE_LIMITS.importFlags`): 400.
 *
 * @example exportFeatures(registry, { environment: 'development', project: 'default', downloadFile: false })
 */
export function exportFeatures(registry: Registry, query: ExportQuery): Result<ExportResult> {
  const { environment } = query;
  if (!registry.service.state.environments.some((e) => e.name === environment)) return failed(fail('NotFoundError', `Could not find environment "${environment}"`));
  const chosen = choose(registry, query);
  if (!chosen.ok) return chosen;
  const held = chosen.value.sort((a, b) => (a.flag.name < b.flag.name ? -1 : a.flag.name > b.flag.name ? 1 : a.project < b.project ? -1 : 1));
  if (held.length > SHAPE_LIMITS.importFlags) {
    return failed(fail('ValidationError', `The export would hold ${held.length} flags; one export holds at most ${SHAPE_LIMITS.importFlags} (as many as one import takes): choose them by project, tag or names`));
  }

  const result: ExportResult = { features: [], featureStrategies: [], featureEnvironments: [], contextFields: [], featureTags: [], segments: [], tagTypes: [], dependencies: [] };
  const usedFields = new Set<string>();
  const usedSegments = new Set<number>();
  const usedTagTypes = new Set<string>();
  for (const { project, flag } of held) {
    result.features.push({ name: flag.name, description: flag.description === '' ? null : flag.description, type: flag.type, project, stale: flag.stale, impressionData: flag.impressionData, archived: flag.archived });
    const entry = Object.hasOwn(flag.environments, environment) ? flag.environments[environment] : undefined;
    if (entry) {
      for (const { sortOrder: _s, ...strategy } of entry.strategies) {
        result.featureStrategies.push({ name: strategy.name, id: strategy.id, featureName: flag.name, title: strategy.title, parameters: { ...strategy.parameters }, constraints: strategy.constraints, variants: strategy.variants, disabled: strategy.disabled, segments: strategy.segments });
        const stickiness = strategy.parameters['stickiness'];
        if (stickiness !== undefined) usedFields.add(stickiness);
        for (const c of strategy.constraints) usedFields.add(c.contextName);
        for (const id of strategy.segments) usedSegments.add(id);
      }
      // Unleash leaves out an empty `overrides`.
      const variants = flag.variants.map(({ overrides, ...variant }) => (overrides && overrides.length > 0 ? { ...variant, overrides } : variant));
      result.featureEnvironments.push({ enabled: entry.enabled, featureName: flag.name, environment, variants, name: flag.name });
      for (const variant of flag.variants) {
        if (variant.stickiness !== undefined) usedFields.add(variant.stickiness);
        for (const o of variant.overrides ?? []) usedFields.add(o.contextName);
      }
    }
    for (const tag of flag.tags ?? []) {
      result.featureTags.push({ featureName: flag.name, tagType: tag.type, tagValue: tag.value });
      usedTagTypes.add(tag.type);
    }
    if ((flag.dependencies ?? []).length > 0) {
      result.dependencies.push({ feature: flag.name, dependencies: flag.dependencies!.map((d) => ({ feature: d.feature, enabled: d.enabled, variants: d.variants ?? [] })) });
    }
  }
  const service = registry.service.state;
  result.contextFields = service.contextFields
    .filter((f) => usedFields.has(f.name))
    .map(({ createdAt: _c, ...field }) => ({ ...field, legalValues: field.legalValues.map((l) => ({ ...l })) }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  result.segments = Object.values(service.segments).filter((s) => usedSegments.has(s.id)).sort((a, b) => a.id - b.id).map((s) => ({ id: s.id, name: s.name }));
  result.tagTypes = service.tagTypes.filter((t) => usedTagTypes.has(t.name)).map((t) => ({ name: t.name, description: t.description, icon: t.icon, color: t.color }));
  return ok(result);
}

/** The flags the query names (see the file's comment for the order of precedence). */
function choose(registry: Registry, query: ExportQuery): Result<Held[]> {
  const all = (active: boolean, test: (flag: Flag) => boolean): Held[] => {
    const held: Held[] = [];
    for (const project of registry.projectIds()) {
      for (const flag of registry.project(project)!.state.flags.values()) if ((!active || !flag.archived) && test(flag)) held.push({ project, flag });
    }
    return held;
  };
  if (query.tag !== undefined) {
    const wanted = query.tag;
    return ok(all(false, (flag) => (flag.tags ?? []).some((t) => t.value === wanted || `${t.type}:${t.value}` === wanted)));
  }
  if (query.features && query.features.length > 0) {
    const names = new Set(query.features);
    return ok(all(false, (flag) => names.has(flag.name)));
  }
  if (query.project !== undefined) {
    const found = registry.find(query.project);
    if (!found.ok) return failed(found.error);
    return ok([...found.value.state.flags.values()].filter((f) => !f.archived).map((flag) => ({ project: query.project!, flag })));
  }
  return ok(all(true, () => true));
}
