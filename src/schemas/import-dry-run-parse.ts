/**
 * The body of an import dry run (`POST /api/admin/features-batch/validate`) read entry by entry: every schema
 * issue of every part is collected (up to a bound) instead of the first ones making a 400, and the entries that
 * are valid are kept, so the dry run can also report what the rest would meet. A flag whose own entry is invalid
 * takes its strategies, environments, tags and dependencies out of the checks with it.
 */
import * as v from 'valibot';
import { EnvironmentNameSchema, ProjectIdSchema } from './common.schema.js';
import { EXPORT_DATA_IGNORED, EXPORT_DATA_LISTS, type ExportData } from './import.schema.js';

/** Most schema issues a dry run lists; past it, one more item says how many were left out. */
export const DRY_RUN_ISSUES_MAX = 100;
/** Most issues listed for one entry. */
const ISSUES_PER_ENTRY = 5;

/** A dry run's input: what parsed (null where `project` or `environment` did not), and each issue as `where: why`. */
export interface DryRunInput {
  project: string | null;
  environment: string | null;
  data: ExportData;
  issues: string[];
}

type ListKey = keyof typeof EXPORT_DATA_LISTS;

/** The lists whose entries belong to one flag. */
const FLAG_PARTS = ['featureStrategies', 'featureEnvironments', 'featureTags', 'dependencies'] as const satisfies readonly ListKey[];

/** Collects issue texts, counting those past the bound. */
class IssueList {
  readonly texts: string[] = [];
  private dropped = 0;
  add(where: string, message: string): void {
    if (this.texts.length < DRY_RUN_ISSUES_MAX) this.texts.push(`${where}: ${message}`);
    else this.dropped += 1;
  }
  addAll(where: string, issues: readonly v.BaseIssue<unknown>[]): void {
    for (const issue of issues.slice(0, ISSUES_PER_ENTRY)) {
      const path = v.getDotPath(issue);
      this.add(path ? `${where}.${path}` : where, issue.message);
    }
  }
  done(): string[] {
    return this.dropped > 0 ? [...this.texts, `and ${this.dropped} more issues not listed`] : this.texts;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `value` by `schema`, or null with its issues noted under `where`. */
function field<S extends v.GenericSchema>(schema: S, value: unknown, where: string, issues: IssueList): v.InferOutput<S> | null {
  const parsed = v.safeParse(schema, value);
  if (parsed.success) return parsed.output;
  issues.addAll(where, parsed.issues);
  return null;
}

/** The flag an entry of a list belongs to (`featureName`, or `feature` for dependencies), when it names one. */
const flagOf = (key: ListKey, entry: unknown): unknown =>
  (isObject(entry) ? (key === 'dependencies' ? entry['feature'] : key === 'features' ? entry['name'] : entry['featureName']) : undefined);

/**
 * Reads `body` (any JSON object) as an import body: each top-level field, and each entry of each list of
 * `data`, by its own schema.
 *
 * @example parseImportForDryRun({ project: 'default', environment: 'development', data: { features: [{ name: 'a b' }], featureStrategies: [] } })
 * // { project: 'default', environment: 'development', data: { features: [], ... }, issues: ['data.features.0.name: must be URL-friendly ...'] }
 */
export function parseImportForDryRun(body: Record<string, unknown>): DryRunInput {
  const issues = new IssueList();
  for (const key of Object.keys(body)) if (key !== 'project' && key !== 'environment' && key !== 'data') issues.add(key, 'is not a known property');
  const project = field(ProjectIdSchema, body['project'], 'project', issues);
  const environment = field(EnvironmentNameSchema, body['environment'], 'environment', issues);
  const raw = body['data'];
  if (!isObject(raw)) issues.add('data', raw === undefined ? 'is required' : 'must be an object');
  const source = isObject(raw) ? raw : {};
  for (const key of Object.keys(source)) {
    if (!Object.hasOwn(EXPORT_DATA_LISTS, key) && !(EXPORT_DATA_IGNORED as readonly string[]).includes(key)) issues.add(`data.${key}`, 'is not a known property');
  }

  const kept = {} as Record<ListKey, unknown[]>;
  const invalidFlags = new Set<string>();
  for (const key of Object.keys(EXPORT_DATA_LISTS) as ListKey[]) {
    const { item, max, what, required } = EXPORT_DATA_LISTS[key];
    const list = source[key];
    kept[key] = [];
    if (list === undefined) {
      if (required && isObject(raw)) issues.add(`data.${key}`, 'is required');
      continue;
    }
    if (!Array.isArray(list)) {
      issues.add(`data.${key}`, `must be an array of ${what}`);
      continue;
    }
    if (list.length > max) {
      issues.add(`data.${key}`, `must hold at most ${max} ${what}`);
      continue;
    }
    for (const [i, entry] of list.entries()) {
      const parsed = field(item as v.GenericSchema, entry, `data.${key}.${i}`, issues);
      if (parsed !== null) kept[key].push(parsed);
      else if (key === 'features' && typeof flagOf(key, entry) === 'string') invalidFlags.add(flagOf(key, entry) as string);
    }
  }
  // Parts of a flag whose own entry is invalid are not checked further: that flag is reported already.
  for (const key of FLAG_PARTS) kept[key] = kept[key].filter((entry) => !invalidFlags.has(flagOf(key, entry) as string));
  const data = kept as unknown as ExportData;
  if (source['links'] !== undefined) data.links = source['links'];
  return { project, environment, data, issues: issues.done() };
}
