/**
 * Reads everything flagpole can hold from a running Unleash 6.x, 7.x or 8.x through its admin API
 * (docs/migration.md "What moves"). Flags are read in bulk through the export route
 * (`POST /api/admin/features-batch/export`, one environment at a time), which all three major versions
 * answer alike and which, unlike the flag detail, also covers archived flags; Unleash 7 dropped the flag-level
 * variants route, and the export's per-environment variants are read in every version.
 */
import * as v from 'valibot';
import {
  AddonsSchema, AccessSchema, ContextFieldsSchema, DetailSchema, EnvironmentsSchema, ExportSchema, FeatureListSchema, OverviewSchema, ProjectsSchema,
  SearchSchema, SegmentsSchema, StrategyDefinitionsSchema, TagTypesSchema, TokensSchema, UiConfigSchema, UsersSchema,
} from './unleash-schemas.js';
import { constraint, strategy, variant, type SourceData, type SourceFlag, type Variant } from './source-model.js';
import { MIGRATE_BOUNDS } from '../limits.js';
import { MigrateError } from './migrate-error.js';

/** Flags named in one export request. */
export const EXPORT_BATCH = 500;
/** Flag details read at once (to learn the strategies' order). */
const DETAIL_CONCURRENCY = 8;
/** Page size of the archived-flag search. */
const SEARCH_PAGE = 100;
/** Built-in strategies every Unleash and flagpole has: not migrated as definitions. */
const BUILT_IN_STRATEGIES = new Set(['default', 'flexibleRollout', 'userWithId', 'remoteAddress', 'applicationHostname', 'gradualRolloutRandom', 'gradualRolloutSessionId', 'gradualRolloutUserId']);

export interface UnleashSource {
  url: URL;
  token: string;
  timeoutMs: number;
}

/** One JSON request to the Unleash; every failure a `MigrateError` that names the route, never the token. */
export async function unleashRequest(source: UnleashSource, method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  const url = new URL(path.replace(/^\//, ''), source.url.href.endsWith('/') ? source.url : new URL(`${source.url.href}/`));
  let response: Response;
  try {
    response = await fetch(url, {
      method, signal: AbortSignal.timeout(source.timeoutMs),
      headers: { authorization: source.token, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    throw new MigrateError(`cannot reach the Unleash at ${source.url.origin} (${cause}) for ${method} ${path}`);
  }
  const text = await bounded(response, `${method} ${path}`);
  if (response.status === 401 || response.status === 403) {
    throw new MigrateError(`the Unleash refused the token (${response.status}) on ${method} ${path}: give an admin API token (--token or UNLEASH_TOKEN)`);
  }
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    if (response.ok) throw new MigrateError(`the Unleash's answer to ${method} ${path} is not JSON (${response.status}, ${text.length} bytes): is --from the Unleash's base URL?`);
  }
  if (response.status >= 500) {
    const message = (json as { message?: unknown } | undefined)?.message;
    throw new MigrateError(`the Unleash failed on ${method} ${path} (${response.status}${typeof message === 'string' ? `: ${message.slice(0, 200)}` : ''})`);
  }
  return { status: response.status, json };
}

/** The answer's text, refused past `MIGRATE_BOUNDS.answerBytes`. */
async function bounded(response: Response, what: string): Promise<string> {
  const tooLarge = () => new MigrateError(`the Unleash's answer to ${what} is larger than ${MIGRATE_BOUNDS.answerBytes} bytes`);
  if (Number(response.headers.get('content-length') ?? 0) > MIGRATE_BOUNDS.answerBytes) throw tooLarge();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of response.body ?? []) {
      size += chunk.byteLength;
      if (size > MIGRATE_BOUNDS.answerBytes) {
        await response.body?.cancel();
        throw tooLarge();
      }
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof MigrateError) throw error;
    throw new MigrateError(`the Unleash's answer to ${what} broke off (${(error as Error).name})`);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A GET (or POST) whose 2xx answer must have `schema`'s shape. */
async function read<S extends v.GenericSchema>(source: UnleashSource, schema: S, path: string, body?: unknown): Promise<v.InferOutput<S>> {
  const { status, json } = await unleashRequest(source, body === undefined ? 'GET' : 'POST', path, body);
  if (status === 404) throw new MigrateError(`the Unleash has no ${path.split('?')[0]} (404): is --from the Unleash's base URL, and is it Unleash 6, 7 or 8?`);
  if (status < 200 || status >= 300) throw new MigrateError(`the Unleash answered ${status} to ${body === undefined ? 'GET' : 'POST'} ${path}`);
  const result = v.safeParse(schema, json);
  if (!result.success) {
    const issue = result.issues[0];
    throw new MigrateError(`the Unleash's answer to ${path.split('?')[0]} is not what migrate reads: ${v.getDotPath(issue) ?? '(root)'}: ${issue.message}`);
  }
  return result.output;
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The Unleash's addons (secrets masked by its API); none when it has no addon API (404). */
async function readAddons(source: UnleashSource): Promise<SourceData['addons']> {
  const { status } = await unleashRequest(source, 'GET', '/api/admin/addons');
  if (status === 404) return [];
  return (await read(source, AddonsSchema, '/api/admin/addons')).addons.map((a) => ({
    id: a.id, provider: a.provider, description: a.description ?? '', enabled: a.enabled ?? true, parameters: a.parameters ?? {},
    events: a.events ?? [], projects: a.projects ?? [], environments: a.environments ?? [],
  }));
}

/**
 * Collapses per-environment variants (Unleash 5+) into flagpole's one list: the list when every environment
 * agrees, otherwise the one of the first environment (in the Unleash's order) that has any, with a note.
 */
export function collapseVariants(perEnvironment: [string, Variant[]][]): { variants: Variant[]; note?: string } {
  const lists = perEnvironment.filter(([, list]) => list.length > 0);
  if (lists.length === 0) return { variants: [] };
  const [first, firstList] = lists[0]!;
  if (perEnvironment.every(([, list]) => sameJson(list, firstList))) return { variants: firstList };
  return { variants: firstList, note: `variants differ per environment; flagpole holds one list: took ${first}'s` };
}

/** Reads the whole Unleash; `onProgress(done, total)` counts flags read. */
export async function readUnleash(source: UnleashSource, onProgress: (done: number, total: number) => void = () => {}): Promise<SourceData> {
  const ui = await read(source, UiConfigSchema, '/api/admin/ui-config');
  const version = ui.versionInfo?.current?.oss || ui.versionInfo?.current?.enterprise || ui.version || 'unknown';
  const [, majorText, minorText] = /^(\d+)\.(\d+)/.exec(version) ?? [];
  const major = Number(majorText ?? NaN);
  const minor = Number(minorText ?? 0);
  if (!(major >= 6 && major <= 8)) throw new MigrateError(`the Unleash is version ${version}: migrate reads Unleash 6.x, 7.x and 8.x`);

  const environments = (await read(source, EnvironmentsSchema, '/api/admin/environments')).environments
    .map((e, i) => ({ name: e.name, type: e.type ?? 'development', sortOrder: e.sortOrder ?? i, enabled: e.enabled ?? true }));
  const segmentsRaw = (await read(source, SegmentsSchema, '/api/admin/segments')).segments;
  const segmentNames = new Map(segmentsRaw.map((s) => [s.id, s.name]));
  const projectsRaw = (await read(source, ProjectsSchema, '/api/admin/projects')).projects.filter((p) => !p.archivedAt);

  const data: SourceData = {
    version, major, environments, projects: [], flags: [],
    segments: segmentsRaw.map((s) => ({ name: s.name, description: s.description ?? null, project: s.project ?? null, constraints: (s.constraints ?? []).map(constraint) })),
    tagTypes: (await read(source, TagTypesSchema, '/api/admin/tag-types')).tagTypes.map((t) => ({ name: t.name, description: t.description ?? '', icon: t.icon ?? null, color: t.color ?? null })),
    // Unleash 7.4 added a project's own context fields, listed only on request; flagpole holds them service-wide.
    contextFields: (await read(source, ContextFieldsSchema, major > 7 || (major === 7 && minor >= 4) ? '/api/admin/context?include=project' : '/api/admin/context')).map((f) => ({
      name: f.name, description: f.description ?? '', stickiness: f.stickiness ?? false, ...(typeof f.sortOrder === 'number' ? { sortOrder: f.sortOrder } : {}),
      legalValues: (f.legalValues ?? []).map((l) => ({ value: l.value, description: l.description ?? null })),
    })),
    strategyDefinitions: (await read(source, StrategyDefinitionsSchema, '/api/admin/strategies')).strategies
      .filter((s) => s.editable !== false && !BUILT_IN_STRATEGIES.has(s.name))
      .map((s) => ({ name: s.name, title: s.title ?? null, description: s.description ?? '', parameters: (s.parameters ?? []).map((p) => ({ name: p.name, type: p.type, description: p.description ?? '', required: p.required ?? false })) })),
    users: [], members: null, tokens: [], addons: await readAddons(source),
  };
  const users = await read(source, UsersSchema, '/api/admin/user-admin');
  const rootRoles = new Map((users.rootRoles ?? [{ id: 1, name: 'Admin' }, { id: 2, name: 'Editor' }, { id: 3, name: 'Viewer' }]).map((r) => [r.id, r.name]));
  data.users = users.users.filter((u) => !u.isAPI).map((u) => ({ id: u.id, name: u.name ?? null, email: u.email ?? null, username: u.username ?? null, rootRole: rootRoles.get(u.rootRole ?? 3) ?? `role ${u.rootRole}` }));
  data.tokens = (await read(source, TokensSchema, '/api/admin/api-tokens')).tokens
    .map((t) => ({ tokenName: t.tokenName ?? t.username ?? '', type: t.type, projects: t.projects ?? (t.project ? [t.project] : []), environment: t.environment ?? '*' }));

  // Projects: the overview carries mode, default stickiness, environments and their default strategies.
  const names = new Map<string, string[]>();
  // On/off per environment from the project's flag list: Unleash 6.10's export answers `enabled: true` for
  // environments that are off (seen on 6.10.1), so its `enabled` is not read.
  const enabled = new Map<string, Set<string>>();
  for (const p of projectsRaw) {
    const overview = await read(source, OverviewSchema, `/api/admin/projects/${encodeURIComponent(p.id)}/overview`);
    const envs = overview.environments ?? environments.map((e) => ({ environment: e.name, defaultStrategy: null }));
    data.projects.push({
      id: p.id, name: p.name, description: p.description ?? overview.description ?? '', mode: overview.mode ?? p.mode ?? null, defaultStickiness: overview.defaultStickiness ?? null,
      environments: envs.map((e) => e.environment),
      defaultStrategies: Object.fromEntries(envs.filter((e) => e.defaultStrategy).map((e) => [e.environment, strategy(e.defaultStrategy!, segmentNames)])),
    });
    const active = (await read(source, FeatureListSchema, `/api/admin/projects/${encodeURIComponent(p.id)}/features`)).features;
    for (const f of active) enabled.set(`${p.id}\u0000${f.name}`, new Set((f.environments ?? []).filter((e) => e.enabled).map((e) => e.name)));
    names.set(p.id, [...active.map((f) => f.name), ...await archivedNames(source, p.id)]);
  }
  data.members = await readMembers(source, data.projects.map((p) => p.id));

  const total = [...names.values()].reduce((n, list) => n + list.length, 0);
  let done = 0;
  onProgress(0, total);
  for (const project of data.projects) {
    const list = names.get(project.id) ?? [];
    for (let i = 0; i < list.length; i += EXPORT_BATCH) {
      const batch = list.slice(i, i + EXPORT_BATCH);
      data.flags.push(...await exportFlags(source, project.id, project.environments, batch, segmentNames, enabled));
      onProgress(done += batch.length, total);
    }
  }
  return data;
}

/** Runs `work` over `items`, `limit` at a time. */
async function pool<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++]!);
  }));
}

/** Archived flag names of a project, through the search (6.x to 8.x), page by page. */
async function archivedNames(source: UnleashSource, project: string): Promise<string[]> {
  const out: string[] = [];
  for (let offset = 0; ; offset += SEARCH_PAGE) {
    const page = await read(source, SearchSchema, `/api/admin/search/features?project=IS:${encodeURIComponent(project)}&archived=IS:true&offset=${offset}&limit=${SEARCH_PAGE}`);
    out.push(...page.features.filter((f) => f.project === undefined || f.project === project).map((f) => f.name));
    if (page.features.length < SEARCH_PAGE || (page.total !== undefined && offset + SEARCH_PAGE >= page.total)) return out;
  }
}

/** Project roles (Enterprise); null when the route is absent (open source Unleash has none). */
async function readMembers(source: UnleashSource, projects: string[]): Promise<SourceData['members']> {
  const members: NonNullable<SourceData['members']> = [];
  for (const project of projects) {
    const { status, json } = await unleashRequest(source, 'GET', `/api/admin/projects/${encodeURIComponent(project)}/access`);
    if (status === 404) return null;
    const access = v.safeParse(AccessSchema, json);
    if (status !== 200 || !access.success) throw new MigrateError(`the Unleash's answer to /api/admin/projects/${project}/access is not what migrate reads (${status})`);
    const roles = new Map((access.output.roles ?? []).map((r) => [r.id, r.name]));
    for (const user of access.output.users ?? []) {
      for (const roleId of user.roles ?? (user.roleId === undefined ? [] : [user.roleId])) members.push({ project, userId: user.id, role: roles.get(roleId) ?? `role ${roleId}` });
    }
  }
  return members;
}

/** The flags of one batch, through one export per environment of the project. */
async function exportFlags(source: UnleashSource, project: string, environments: string[], batch: string[], segmentNames: Map<number, string>, enabled: Map<string, Set<string>>): Promise<SourceFlag[]> {
  const flags = new Map<string, SourceFlag>();
  const strategyIds = new Map<object, string>();
  const perEnvironmentVariants = new Map<string, [string, Variant[]][]>();
  for (const environment of environments) {
    const answer = await read(source, ExportSchema, '/api/admin/features-batch/export', { features: batch, environment });
    for (const f of answer.features) {
      if (flags.has(f.name) || (f.project !== undefined && f.project !== project)) continue;
      flags.set(f.name, {
        project, name: f.name, description: f.description ?? '', type: f.type ?? 'release', stale: f.stale ?? false, impressionData: f.impressionData ?? false,
        archived: f.archived ?? false, variants: [], notes: [], environments: {}, tags: [], dependencies: [],
      });
      perEnvironmentVariants.set(f.name, []);
      for (const t of answer.featureTags) if (t.featureName === f.name) flags.get(f.name)!.tags.push({ type: t.tagType, value: t.tagValue });
      for (const d of answer.dependencies) {
        if (d.feature !== f.name) continue;
        flags.get(f.name)!.dependencies = d.dependencies.map((p) => (p.enabled === false ? { feature: p.feature, enabled: false } : { feature: p.feature, enabled: true, ...(p.variants?.length ? { variants: p.variants } : {}) }));
      }
    }
    for (const flag of flags.values()) flag.environments[environment] ??= { enabled: false, strategies: [] };
    for (const e of answer.featureEnvironments) {
      const flag = flags.get(e.featureName ?? e.name ?? '');
      if (!flag) continue;
      flag.environments[environment] = { enabled: enabled.get(`${project}\u0000${flag.name}`)?.has(environment) ?? false, strategies: flag.environments[environment]?.strategies ?? [] };
      perEnvironmentVariants.get(flag.name)!.push([environment, (e.variants ?? []).map(variant)]);
    }
    for (const s of answer.featureStrategies) {
      const one = strategy(s, segmentNames);
      if (typeof s['id'] === 'string') strategyIds.set(one, s['id']);
      flags.get(s.featureName)?.environments[environment]?.strategies.push(one);
    }
  }
  // The export does not keep the strategies' sort order: an active flag with two or more strategies in an
  // environment is read once more whole (its detail lists them in order). Archived flags have no detail.
  const unordered = [...flags.values()].filter((f) => !f.archived && Object.values(f.environments).some((env) => env.strategies.length > 1));
  await pool(unordered, DETAIL_CONCURRENCY, async (flag) => {
    const detail = await read(source, DetailSchema, `/api/admin/projects/${encodeURIComponent(project)}/features/${encodeURIComponent(flag.name)}`);
    for (const env of detail.environments ?? []) {
      const list = flag.environments[env.name]?.strategies;
      if (!list || list.length < 2) continue;
      const place = new Map((env.strategies ?? []).map((s, i) => [s.id, s.sortOrder ?? i]));
      list.sort((a, b) => (place.get(strategyIds.get(a) ?? '') ?? Infinity) - (place.get(strategyIds.get(b) ?? '') ?? Infinity));
    }
  });
  for (const flag of flags.values()) {
    const { variants, note } = collapseVariants(perEnvironmentVariants.get(flag.name) ?? []);
    flag.variants = variants;
    if (note) flag.notes.push(note);
    // Unleash serves an environment that is on without any strategy as on for everyone; flagpole needs a strategy for that.
    for (const [name, env] of Object.entries(flag.environments)) {
      if (flag.archived || !env.enabled || env.strategies.length > 0) continue;
      env.strategies.push({ name: 'default', title: null, disabled: false, constraints: [], parameters: {}, variants: [], segments: [] });
      flag.notes.push(`on in ${name} without strategies: given the default strategy (on for everyone, as Unleash serves it)`);
    }
  }
  return [...flags.values()];
}
