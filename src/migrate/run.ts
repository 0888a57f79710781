/**
 * A whole migration (docs/migration.md): read the Unleash, read the target's dump, plan, and (unless a dry
 * run) send the plan phase by phase (what is named must exist before what names it: environments, tag types,
 * context fields and strategy definitions, projects, segments, users, project roles, flags, dependencies,
 * archiving and turning environments off), comparing against a fresh dump between phases so a second run finds everything unchanged.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MigrateError } from './migrate-error.js';
import { dependencyStep, flagStep } from './flag-steps.js';
import { KINDS, resolve, type Capabilities, type Ids, type Kind, type Op, type Step } from './plan.js';
import { matchUser, memberSteps, serviceSteps } from './service-steps.js';
import { addonSteps } from './addon-steps.js';
import type { SourceData } from './source-model.js';
import type { Flag } from '../domain/types.js';
import { dataDirTarget, type Target, type TargetDump } from './target.js';

/** Flags written at once: their requests share the project's group commits. */
export const CONCURRENCY = 8;

export interface Row {
  kind: Kind;
  found: number;
  created: number;
  updated: number;
  unchanged: number;
  skipped: number;
  failed: number;
}

export interface Report {
  rows: Row[];
  /** `kind name: why` of every skip and every note of a change. */
  notes: string[];
  failures: string[];
  /** What a dry run would do, a line per step that changes something. */
  plan: string[];
}

export interface RunOptions {
  dryRun: boolean;
  onProgress?: (what: string, done: number, total: number) => void;
  /** The settings of a dry run's empty data directory (`dataDirTarget`): the command's environment; default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

/** The target's dump (`GET /api/admin/state`), parsed. */
async function dumpOf(target: Target): Promise<TargetDump> {
  const answer = await target.request('GET', '/api/admin/state');
  if (answer.status !== 200 || typeof answer.body !== 'object' || !answer.body?.service) throw new MigrateError(`the target answered ${answer.status} to GET /api/admin/state: is it a flagpole?`);
  return answer.body as TargetDump;
}

/** What the target's routes accept beyond the base API, from its OpenAPI document. */
async function capabilitiesOf(target: Target): Promise<Capabilities> {
  const answer = await target.request('GET', '/docs/openapi.json');
  const paths = answer.status === 200 ? answer.body?.paths ?? {} : {};
  const schema = paths['/api/admin/projects']?.post?.requestBody?.content?.['application/json']?.schema;
  return {
    projectFields: new Set(Object.keys(schema?.properties ?? {})), projectUpdate: Boolean(paths['/api/admin/projects/{projectId}']?.put),
    environmentUpdate: Boolean(paths['/api/admin/environments/update/{name}']?.put),
    environmentToggle: Boolean(paths['/api/admin/environments/{name}/on']?.post && paths['/api/admin/environments/{name}/off']?.post),
    environmentSortOrder: Boolean(paths['/api/admin/environments/sort-order']?.put),
  };
}

/** A new data directory's dump, for a dry run into a directory that does not exist yet: nothing is written there. */
async function emptyDump(env: NodeJS.ProcessEnv | undefined): Promise<{ dump: TargetDump; caps: Capabilities }> {
  const dir = await mkdtemp(join(tmpdir(), 'flagpole-migrate-'));
  try {
    const target = await dataDirTarget(join(dir, 'data'), env);
    try {
      return { dump: await dumpOf(target), caps: await capabilitiesOf(target) };
    } finally {
      await target.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** True when `dir` is missing or empty (a dry run then plans against a new directory without making it). */
export async function isNewDirectory(dir: string): Promise<boolean> {
  try {
    return (await readdir(dir)).length === 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
}

/** Runs `work` over `items`, `limit` at a time. */
async function pool<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++]!);
  }));
}

/** The ids the target gave to what the source names, from its dump. */
function idsOf(source: SourceData, dump: TargetDump): Ids {
  const segments = new Map<string, number>(Object.values(dump.service.state.segments).map((s) => [s.name, s.id]));
  const users = Object.values(dump.service.state.users);
  return {
    segment: (name) => segments.get(name) ?? 0,
    user: (id) => {
      const u = source.users.find((x) => x.id === id);
      return (u && matchUser(users, u)?.id) ?? 0;
    },
  };
}

/**
 * Migrates `source` into `target` (or, with `dryRun`, plans it); `target` may be null for a dry run into a
 * new data directory. Unreachable or refusing targets throw `MigrateError`; a refused request fails its step
 * only (reported, exit 1 from the command).
 */
export async function migrateInto(source: SourceData, target: Target | null, options: RunOptions): Promise<Report> {
  const rows = new Map<Kind, Row>(KINDS.map((kind) => [kind, { kind, found: 0, created: 0, updated: 0, unchanged: 0, skipped: 0, failed: 0 }]));
  const report: Report = { rows: [], notes: [], failures: [], plan: [] };
  let { dump, caps } = target ? { dump: await dumpOf(target), caps: await capabilitiesOf(target) } : await emptyDump(options.env);
  let ids = idsOf(source, dump);
  const progress = options.onProgress ?? (() => {});

  const failedSteps = new Set<Step>();
  const fail = (step: Step) => {
    if (failedSteps.has(step)) return;
    failedSteps.add(step);
    const row = rows.get(step.kind)!;
    row.failed++;
    if (step.action === 'create') row.created--;
    else if (step.action === 'update') row.updated--;
  };
  const send = async (op: Op, step: Step): Promise<boolean> => {
    const { method, path, body } = resolve(op, ids);
    if (method === 'CONNECT-EXACTLY') return connectExactly(target!, path, body as string[], step);
    const answer = await target!.request(method, path, body);
    if (answer.status >= 200 && answer.status < 300) return true;
    const message = typeof answer.body === 'object' && answer.body ? answer.body.message ?? JSON.stringify(answer.body).slice(0, 200) : String(answer.body).slice(0, 200);
    report.failures.push(`${step.kind} ${step.name}: ${method} ${path} answered ${answer.status}: ${message}`);
    return false;
  };
  const connectExactly = async (t: Target, projectPath: string, wanted: string[], step: Step): Promise<boolean> => {
    const id = decodeURIComponent(projectPath.slice(projectPath.lastIndexOf('/') + 1));
    const project = (await t.request('GET', `/api/admin/state?project=${encodeURIComponent(id)}`)).body?.projects?.[0];
    const connected: string[] = project?.meta?.environments ?? [];
    for (const env of wanted) if (!connected.includes(env) && !await send({ method: 'POST', path: `${projectPath}/environments`, body: { environment: env } }, step)) return false;
    for (const env of connected) if (!wanted.includes(env) && !await send({ method: 'DELETE', path: `${projectPath}/environments/${encodeURIComponent(env)}` }, step)) return false;
    return true;
  };
  const count = (step: Step) => {
    const row = rows.get(step.kind)!;
    row.found++;
    if (step.action === 'create') row.created++;
    else if (step.action === 'update') row.updated++;
    else if (step.action === 'unchanged') row.unchanged++;
    else row.skipped++;
    if (step.detail && (step.action === 'skip' || step.kind === 'flags')) report.notes.push(`${step.kind} ${step.name}: ${step.action === 'skip' ? 'skipped: ' : ''}${step.detail}`);
    if (step.action === 'create' || step.action === 'update') report.plan.push(`${step.action === 'create' ? '+' : '~'} ${step.kind} ${step.name}${step.detail ? ` (${step.detail})` : ''}: ${step.ops.length + (step.after?.length ?? 0)} request${step.ops.length + (step.after?.length ?? 0) === 1 ? '' : 's'}`);
  };
  const run = async (steps: Step[], what: string, limit = 1) => {
    for (const step of steps) count(step);
    if (options.dryRun || !target) return;
    let done = 0;
    const todo = steps.filter((s) => s.ops.length > 0);
    progress(what, 0, todo.length);
    await pool(todo, limit, async (step) => {
      for (const op of step.ops) {
        if (!await send(op, step)) {
          fail(step);
          step.after = [];
          break;
        }
      }
      progress(what, ++done, todo.length);
    });
  };
  const refresh = async () => {
    if (options.dryRun || !target) return;
    dump = await dumpOf(target);
    ids = idsOf(source, dump);
  };

  const service = serviceSteps(source, dump, caps);
  await run(service.filter((s) => s.kind !== 'default strategies'), 'definitions');
  // Default strategies name segments by the ids just given.
  await refresh();
  await run(service.filter((s) => s.kind === 'default strategies'), 'default strategies');
  await run(memberSteps(source, dump), 'project roles');
  const flagsOf = (d: TargetDump) => new Map<string, Flag>(d.projects.flatMap((p) => p.flags.map((f) => [`${p.id}\u0000${f.name}`, f] as const)));
  const segmentName = (id: number) => Object.values(dump.service.state.segments).find((s) => s.id === id)?.name ?? `#${id}`;
  let flags = flagsOf(dump);
  const flagSteps = source.flags.map((f) => flagStep(f, flags.get(`${f.project}\u0000${f.name}`), segmentName));
  await run(flagSteps, 'flags', CONCURRENCY);
  await refresh();
  flags = flagsOf(dump);
  const dependencySteps = source.flags.map((f) => dependencyStep(f, flags.get(`${f.project}\u0000${f.name}`))).filter((s): s is Step => s !== null);
  await run(dependencySteps, 'dependencies', CONCURRENCY);
  // Archiving last: an archived flag takes no change, and a revived one goes back. Environments are turned
  // off last too, once every project has connected them.
  const archive = [...service, ...flagSteps, ...dependencySteps].filter((s) => s.after && s.after.length > 0);
  if (!options.dryRun && target) {
    const sent = new Set<string>();
    await pool(archive, CONCURRENCY, async (step) => {
      for (const op of step.after!) {
        const key = `${op.method} ${String(op.path)}`;
        if (sent.has(key)) continue;
        sent.add(key);
        if (!await send(op, step)) fail(step);
      }
    });
  }
  // Addons last: the migration's own writes are not delivered to the team's receivers.
  await run(addonSteps(source, dump), 'addons');
  for (const token of source.tokens) count({ kind: 'api tokens', name: token.tokenName, action: 'skip', ops: [] });
  report.rows = [...rows.values()];
  return report;
}
