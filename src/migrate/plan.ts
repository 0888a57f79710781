/**
 * The plan of a migration: for every thing the source holds, compared with what the target holds (its dump),
 * one step (create, update, unchanged, or skipped with a reason) and the admin API requests that carry it
 * out. Requests that need an id the target gives later (a segment's, a user's) name it through `Ids`,
 * resolved when they are sent. Nothing here sends anything: `--dry-run` prints the plan.
 */
import { canonical, dependenciesKey, same, strategyKey, tagsKey, targetStrategy, targetVariants, variantsKey } from './compare.js';
import type { Flag, ProjectMeta } from '../domain/types.js';
import type { Environment, User } from '../domain/service-state.js';
import type { SourceData, SourceFlag, Strategy } from './source-model.js';
import type { TargetDump } from './target.js';

export const KINDS = ['environments', 'tag types', 'context fields', 'strategy definitions', 'projects', 'segments', 'default strategies', 'users', 'project roles', 'flags', 'dependencies', 'api tokens'] as const;
export type Kind = (typeof KINDS)[number];

/** The target's ids of things named in the source. */
export interface Ids {
  segment(name: string): number;
  user(sourceId: number): number;
}

export interface Op {
  method: string;
  path: string | ((ids: Ids) => string);
  body?: unknown;
}

export interface Step {
  kind: Kind;
  name: string;
  action: 'create' | 'update' | 'unchanged' | 'skip';
  /** Why skipped, or what an update changes. */
  detail?: string;
  ops: Op[];
  /** Sent in the last phase, after every flag and dependency: archiving. */
  after?: Op[];
}

/** What the target accepts beyond the base API (read from its OpenAPI document). */
export interface Capabilities {
  projectFields: Set<string>;
  projectUpdate: boolean;
  /** `PUT /api/admin/environments/update/:name` (type, sort order). */
  environmentUpdate: boolean;
  /** `POST /api/admin/environments/:name/on` and `/off`. */
  environmentToggle: boolean;
  /** `PUT /api/admin/environments/sort-order`. */
  environmentSortOrder: boolean;
}

const e = encodeURIComponent;
const FLAG = (p: string, f: string) => `/api/admin/projects/${e(p)}/features/${e(f)}`;
const ROLE_IDS: Record<string, number> = { Owner: 4, Member: 5, Reader: 6 };
const ROOT_ROLES = new Set(['Admin', 'Editor', 'Viewer']);

/** A strategy as flagpole's add body, its segments resolved to the target's ids when sent. */
const strategyBody = (s: Strategy, sortOrder: number) => (ids: Ids) => ({
  name: s.name, title: s.title, disabled: s.disabled, sortOrder, constraints: s.constraints, parameters: s.parameters,
  variants: s.variants.map(({ overrides: _o, ...rest }) => rest), segments: s.segments.map((name) => ids.segment(name)),
});

/** Resolves the function-valued parts of an op. */
export function resolve(op: Op, ids: Ids): { method: string; path: string; body?: unknown } {
  const path = typeof op.path === 'function' ? op.path(ids) : op.path;
  const body = typeof op.body === 'function' ? (op.body as (ids: Ids) => unknown)(ids) : op.body;
  return body === undefined ? { method: op.method, path } : { method: op.method, path, body };
}

/** Every step but the flags', dependencies' and archive's (those follow in `flagSteps`). */
export function serviceSteps(source: SourceData, dump: TargetDump, caps: Capabilities): Step[] {
  const state = dump.service.state;
  const steps: Step[] = [];
  const step = (kind: Kind, name: string, action: Step['action'], ops: Op[] = [], detail?: string) => steps.push(detail === undefined ? { kind, name, action, ops } : { kind, name, action, ops, detail });

  for (const env of source.environments) steps.push(environmentStep(env, state.environments.find((x) => x.name === env.name), connecting(source, dump, env.name), caps));
  for (const t of source.tagTypes) {
    const have = state.tagTypes.find((x) => x.name === t.name);
    const body = { description: t.description, icon: t.icon, color: t.color };
    if (!have) step('tag types', t.name, 'create', [{ method: 'POST', path: '/api/admin/tag-types', body: { name: t.name, ...body } }]);
    else if (!same(body, { description: have.description, icon: have.icon, color: have.color })) step('tag types', t.name, 'update', [{ method: 'PUT', path: `/api/admin/tag-types/${e(t.name)}`, body: { name: t.name, ...body } }]);
    else step('tag types', t.name, 'unchanged');
  }
  for (const f of source.contextFields) {
    const have = state.contextFields.find((x) => x.name === f.name);
    const body = { description: f.description, stickiness: f.stickiness, legalValues: f.legalValues.map((l) => (l.description === null ? { value: l.value } : l)), ...(f.sortOrder === undefined ? {} : { sortOrder: f.sortOrder }) };
    const haveKey = have && { description: have.description ?? '', stickiness: have.stickiness, legalValues: have.legalValues.map((l) => (l.description == null ? { value: l.value } : { value: l.value, description: l.description })), ...(f.sortOrder === undefined ? {} : { sortOrder: have.sortOrder }) };
    if (!have) step('context fields', f.name, 'create', [{ method: 'POST', path: '/api/admin/context', body: { name: f.name, ...body } }]);
    else if (!same(body, haveKey)) step('context fields', f.name, 'update', [{ method: 'PUT', path: `/api/admin/context/${e(f.name)}`, body: { name: f.name, ...body } }]);
    else step('context fields', f.name, 'unchanged');
  }
  for (const d of source.strategyDefinitions) {
    const have = state.strategyDefinitions.find((x) => x.name === d.name);
    const body = { title: d.title, description: d.description, parameters: d.parameters };
    if (!have) step('strategy definitions', d.name, 'create', [{ method: 'POST', path: '/api/admin/strategies', body: { name: d.name, ...body } }]);
    else if (!have.editable) step('strategy definitions', d.name, 'skip', [], 'a built-in strategy of flagpole');
    else if (!same(body, { title: have.title, description: have.description ?? '', parameters: have.parameters.map((p) => ({ ...p, description: p.description ?? '' })) })) {
      step('strategy definitions', d.name, 'update', [{ method: 'PUT', path: `/api/admin/strategies/${e(d.name)}`, body: { name: d.name, ...body } }]);
    } else step('strategy definitions', d.name, 'unchanged');
  }
  for (const p of source.projects) steps.push(projectStep(p, dump.projects.find((x) => x.id === p.id)?.meta, caps));
  for (const s of source.segments) {
    const have = Object.values(state.segments).find((x) => x.name === s.name);
    const body = { name: s.name, description: s.description, project: s.project, constraints: s.constraints };
    if (!have) step('segments', s.name, 'create', [{ method: 'POST', path: '/api/admin/segments', body }]);
    else if (!same(body, { name: have.name, description: have.description, project: have.project, constraints: have.constraints.map((c) => targetStrategy({ name: '', constraints: [c] }, () => '').constraints[0]) })) {
      step('segments', s.name, 'update', [{ method: 'PUT', path: `/api/admin/segments/${have.id}`, body }]);
    } else step('segments', s.name, 'unchanged');
  }
  // Default strategies after the segments they may name.
  const segmentName = (id: number) => Object.values(state.segments).find((x) => x.id === id)?.name ?? `#${id}`;
  for (const p of source.projects) {
    const meta = dump.projects.find((x) => x.id === p.id)?.meta;
    for (const [env, strategy] of Object.entries(p.defaultStrategies)) {
      const current = meta?.defaultStrategies?.[env];
      const name = `${p.id}/${env}`;
      if (current && same(strategyKey(targetStrategy(current, segmentName)), strategyKey(strategy))) { step('default strategies', name, 'unchanged'); continue; }
      const post = (ids: Ids) => { const { sortOrder: _s, ...body } = strategyBody(strategy, 0)(ids); return body; };
      step('default strategies', name, current ? 'update' : 'create', [{ method: 'POST', path: `/api/admin/projects/${e(p.id)}/environments/${e(env)}/default-strategy`, body: post }]);
    }
  }
  const targetUsers = Object.values(state.users);
  for (const u of source.users) {
    const label = u.email ?? u.username ?? `user ${u.id}`;
    const have = matchUser(targetUsers, u);
    if (have) step('users', label, have.rootRole === roleId(u.rootRole) || !ROOT_ROLES.has(u.rootRole) ? 'unchanged' : 'skip', [], have.rootRole === roleId(u.rootRole) ? undefined : `root role ${u.rootRole} here, another in the target: flagpole has no user update`);
    else if (!ROOT_ROLES.has(u.rootRole)) step('users', label, 'skip', [], `custom root role "${u.rootRole}": flagpole has Admin, Editor and Viewer`);
    else if (!u.email && !u.username) step('users', label, 'skip', [], 'no email and no username');
    else step('users', label, 'create', [{ method: 'POST', path: '/api/admin/user-admin', body: { ...(u.email ? { email: u.email } : {}), ...(u.name ? { name: u.name } : {}), ...(u.username ? { username: u.username } : {}), rootRole: roleId(u.rootRole) } }]);
  }
  return steps;
}

/** True when a project of the source is to be connected to `environment` in the target (new, or not yet connected). */
function connecting(source: SourceData, dump: TargetDump, environment: string): boolean {
  return source.projects.some((p) => p.environments.includes(environment) && !dump.projects.find((x) => x.id === p.id)?.meta.environments.includes(environment));
}

/**
 * An environment: created (enabled, so that projects may connect it), or its type, sort order and on/off
 * brought to the source's, each through the route the target has for it (`caps`). Turning one off waits
 * in `after` until the projects are connected (a disabled environment cannot be added to a project): one
 * off in both that a project still has to connect is turned on for that, and off again.
 */
function environmentStep(env: SourceData['environments'][number], have: Environment | undefined, connect: boolean, caps: Capabilities): Step {
  const path = `/api/admin/environments/${e(env.name)}`;
  const off: Op = { method: 'POST', path: `${path}/off` };
  const onOff = env.enabled ? 'on' : 'off';
  if (!have) {
    const step: Step = { kind: 'environments', name: env.name, action: 'create', ops: [{ method: 'POST', path: '/api/admin/environments', body: { name: env.name, type: env.type, sortOrder: env.sortOrder } }], detail: `type ${env.type}, sort order ${env.sortOrder}, ${onOff}` };
    if (!env.enabled) {
      if (caps.environmentToggle) step.after = [off];
      else step.detail += ' (created on: the target cannot turn an environment off)';
    }
    return step;
  }
  const ops: Op[] = [];
  const after: Op[] = [];
  const changes: string[] = [];
  const missing: string[] = [];
  if (have.type !== env.type) {
    if (have.protected) missing.push(`type ${env.type} here, ${have.type} in the target (protected there)`);
    else if (caps.environmentUpdate) { ops.push({ method: 'PUT', path: `/api/admin/environments/update/${e(env.name)}`, body: { type: env.type } }); changes.push(`type ${have.type} → ${env.type}`); }
    else missing.push(`type ${env.type} here, ${have.type} in the target: the target has no environment update`);
  }
  if (have.sortOrder !== env.sortOrder) {
    if (caps.environmentSortOrder) ops.push({ method: 'PUT', path: '/api/admin/environments/sort-order', body: { [env.name]: env.sortOrder } });
    else if (caps.environmentUpdate && !have.protected) ops.push({ method: 'PUT', path: `/api/admin/environments/update/${e(env.name)}`, body: { sortOrder: env.sortOrder } });
    if (caps.environmentSortOrder || (caps.environmentUpdate && !have.protected)) changes.push(`sort order ${have.sortOrder} → ${env.sortOrder}`);
    else missing.push(`sort order ${env.sortOrder} here, ${have.sortOrder} in the target: the target cannot change it`);
  }
  const toggle = have.enabled !== env.enabled || (!env.enabled && connect);
  if (toggle && !caps.environmentToggle) missing.push(`${onOff} here, ${have.enabled ? 'on' : 'off'} in the target: the target cannot turn an environment on or off`);
  else if (env.enabled && !have.enabled) { ops.push({ method: 'POST', path: `${path}/on` }); changes.push('on'); }
  else if (!env.enabled && have.enabled) { after.push(off); changes.push('off'); }
  else if (!env.enabled && connect) { ops.push({ method: 'POST', path: `${path}/on` }); after.push(off); changes.push('on while projects connect it, then off'); }
  if (ops.length === 0 && after.length === 0) return missing.length > 0 ? { kind: 'environments', name: env.name, action: 'skip', ops, detail: missing.join('; ') } : { kind: 'environments', name: env.name, action: 'unchanged', ops };
  const step: Step = { kind: 'environments', name: env.name, action: 'update', ops, detail: [...changes, ...missing.map((m) => `not carried: ${m}`)].join('; ') };
  if (after.length > 0) step.after = after;
  return step;
}

const roleId = (name: string) => ({ Admin: 1, Editor: 2, Viewer: 3 } as Record<string, number>)[name] ?? 3;

/** The target's user for a source user: same email, else same username (case-insensitive, as flagpole keeps them unique). */
export function matchUser(targetUsers: User[], u: { email: string | null; username: string | null }): User | undefined {
  const email = u.email?.toLowerCase();
  const username = u.username?.toLowerCase();
  return targetUsers.find((t) => (email && t.email?.toLowerCase() === email) || (username && t.username?.toLowerCase() === username));
}

/** What a project record without these fields means (a project made before them, or the first `default`): Unleash's defaults. */
const PROJECT_FIELD_DEFAULTS: Record<string, string> = { mode: 'open', defaultStickiness: 'default' };

function projectStep(p: SourceData['projects'][number], meta: ProjectMeta | undefined, caps: Capabilities): Step {
  // mode and defaultStickiness go only where the target's project body has them (docs/migration.md "Projects").
  const extra = Object.fromEntries((['mode', 'defaultStickiness'] as const).filter((k) => caps.projectFields.has(k) && p[k] !== null).map((k) => [k, p[k]]));
  const ops: Op[] = [];
  const changes: string[] = [];
  const have = new Set<string>(meta?.environments ?? []);
  if (!meta) ops.push({ method: 'POST', path: '/api/admin/projects', body: { id: p.id, name: p.name, description: p.description, ...extra } });
  else if (p.name !== meta.name || p.description !== (meta.description ?? '') || Object.entries(extra).some(([k, x]) => ((meta as unknown as Record<string, unknown>)[k] ?? PROJECT_FIELD_DEFAULTS[k]) !== x)) {
    if (caps.projectUpdate) {
      ops.push({ method: 'PUT', path: `/api/admin/projects/${e(p.id)}`, body: { name: p.name, description: p.description, ...extra } });
      changes.push(Object.keys(extra).length > 0 ? `name, description, ${Object.keys(extra).join(', ')}` : 'name, description');
    } else changes.push('(name or description differ: the target has no project update)');
  }
  // A new project is connected to every enabled environment of the target: after its creation, the runner
  // connects and disconnects to match the source's list (`CONNECT-EXACTLY`); an existing one is compared here.
  if (!meta) ops.push({ method: 'CONNECT-EXACTLY', path: `/api/admin/projects/${e(p.id)}`, body: p.environments });
  else {
    for (const env of p.environments.filter((x) => !have.has(x))) {
      ops.push({ method: 'POST', path: `/api/admin/projects/${e(p.id)}/environments`, body: { environment: env } });
      changes.push(`+environment ${env}`);
    }
    for (const env of [...have].filter((x) => !p.environments.includes(x))) {
      ops.push({ method: 'DELETE', path: `/api/admin/projects/${e(p.id)}/environments/${e(env)}` });
      changes.push(`-environment ${env}`);
    }
  }
  if (!meta) return { kind: 'projects', name: p.id, action: 'create', ops };
  if (ops.length === 0) return changes.length ? { kind: 'projects', name: p.id, action: 'skip', ops, detail: changes.join(', ') } : { kind: 'projects', name: p.id, action: 'unchanged', ops };
  return { kind: 'projects', name: p.id, action: 'update', ops, detail: changes.join(', ') };
}

/** Project roles: Owner, Member and Reader by name, once the users exist. */
export function memberSteps(source: SourceData, dump: TargetDump): Step[] {
  if (source.members === null) return [{ kind: 'project roles', name: '(all)', action: 'skip', ops: [], detail: 'this Unleash has no project access API (open source): roles not read' }];
  const targetUsers = Object.values(dump.service.state.users);
  return source.members.map((m) => {
    const user = source.users.find((u) => u.id === m.userId);
    const name = `${m.project}/${user?.email ?? user?.username ?? m.userId}`;
    const role = ROLE_IDS[m.role];
    if (!user || role === undefined) return { kind: 'project roles', name, action: 'skip', ops: [], detail: user ? `custom project role "${m.role}"` : 'the user was not migrated' } as Step;
    const have = matchUser(targetUsers, user);
    const current = have ? dump.projects.find((p) => p.id === m.project)?.meta.members[String(have.id)] : undefined;
    if (current === role) return { kind: 'project roles', name, action: 'unchanged', ops: [] } as Step;
    const path = (ids: Ids) => `/api/admin/projects/${e(m.project)}/users/${ids.user(m.userId)}/roles/${role}`;
    return { kind: 'project roles', name, action: current === undefined ? 'create' : 'update', ops: [{ method: current === undefined ? 'POST' : 'PUT', path }] } as Step;
  });
}

/** True when an environment of a flag in the source can be enabled in flagpole (it needs an enabled strategy). */
const canEnable = (env: { enabled: boolean; strategies: Strategy[] }): boolean => env.enabled && env.strategies.some((s) => !s.disabled);

/**
 * A flag's step: create it and fill it, or bring an existing one to the source's state (metadata, each
 * environment's strategies in order and on/off, variants, tags). Dependencies and archiving follow in their own
 * phases (a parent must exist first; an archived flag takes no change).
 */
export function flagStep(flag: SourceFlag, have: Flag | undefined, segmentName: (id: number) => string): Step {
  const name = `${flag.project}/${flag.name}`;
  const path = FLAG(flag.project, flag.name);
  const ops: Op[] = [];
  const changes: string[] = [];
  const meta = { name: flag.name, description: flag.description, type: flag.type, stale: flag.stale, impressionData: flag.impressionData };
  if (!have) ops.push({ method: 'POST', path: `/api/admin/projects/${e(flag.project)}/features`, body: { name: flag.name, description: flag.description, type: flag.type, impressionData: flag.impressionData } });
  const differs = !have || !same(meta, { name: have.name, description: have.description, type: have.type, stale: have.stale, impressionData: have.impressionData });
  const fill: Op[] = [];
  // Environments whose strategies are rewritten: turned on again after (a rewrite may pass through none enabled).
  const rewritten = new Set<string>();
  if (differs && (flag.stale || have)) { fill.push({ method: 'PUT', path, body: meta }); changes.push('metadata'); }
  for (const [env, wanted] of Object.entries(flag.environments)) {
    const current = (have?.environments?.[env]?.strategies ?? []).slice().sort((a, b) => a.sortOrder - b.sortOrder);
    const mine = current.map((s) => targetStrategy(s, segmentName));
    if (!same(mine.map(strategyKey), wanted.strategies.map(strategyKey))) {
      changes.push(`strategies in ${env}`);
      rewritten.add(env);
      wanted.strategies.forEach((s, i) => {
        const there = current[i];
        if (there) { if (!same(strategyKey(mine[i]!), strategyKey(s))) fill.push({ method: 'PUT', path: `${path}/environments/${e(env)}/strategies/${e(there.id)}`, body: strategyBody(s, there.sortOrder) }); }
        else fill.push({ method: 'POST', path: `${path}/environments/${e(env)}/strategies`, body: strategyBody(s, i) });
      });
      for (const extra of current.slice(wanted.strategies.length)) fill.push({ method: 'DELETE', path: `${path}/environments/${e(env)}/strategies/${e(extra.id)}` });
    }
  }
  if (!same(variantsKey(flag.variants), variantsKey(targetVariants(have?.variants)))) { fill.push({ method: 'PUT', path: `${path}/variants`, body: flag.variants }); changes.push('variants'); }
  const haveTags = tagsKey(have?.tags ?? []);
  const wantTags = tagsKey(flag.tags);
  if (canonical(haveTags) !== canonical(wantTags)) {
    const split = (key: string) => ({ type: key.slice(0, key.indexOf(':')), value: key.slice(key.indexOf(':') + 1) });
    fill.push({ method: 'PUT', path: `/api/admin/features/${e(flag.name)}/tags`, body: { addedTags: wantTags.filter((t) => !haveTags.includes(t)).map(split), removedTags: haveTags.filter((t) => !wantTags.includes(t)).map(split) } });
    changes.push('tags');
  }
  // An archived flag takes no change: revived first (every environment off), archived again in the last phase.
  // Archived flags are not served, so their on/off is not carried (a revive turns every environment off anyway).
  const revive = Boolean(have?.archived) && (!flag.archived || fill.length > 0);
  if (!flag.archived) {
    for (const [env, wanted] of Object.entries(flag.environments)) {
      const enabled = canEnable(wanted);
      if (enabled !== (!revive && (have?.environments?.[env]?.enabled ?? false)) || (enabled && rewritten.has(env))) { fill.push({ method: 'POST', path: `${path}/environments/${e(env)}/${enabled ? 'on' : 'off'}` }); changes.push(`${enabled ? 'on' : 'off'} in ${env}`); }
    }
  }
  if (revive) { ops.push({ method: 'POST', path: `/api/admin/projects/${e(flag.project)}/revive`, body: { features: [flag.name] } }); changes.unshift('revived'); }
  ops.push(...fill);
  const notes = [...Object.entries(flag.environments).filter(([, env]) => !flag.archived && env.enabled && !canEnable(env)).map(([env]) => `kept off in ${env}: no enabled strategy (flagpole's rule)`), ...flag.notes];
  const detail = [...(have ? changes : []), ...notes].join('; ') || undefined;
  const archive = flag.archived && (!have || !have.archived || revive);
  const action = !have ? 'create' : ops.length > 0 || archive ? 'update' : 'unchanged';
  const step: Step = { kind: 'flags', name, action, ops, ...(detail === undefined ? {} : { detail }) };
  if (archive) step.after = [{ method: 'DELETE', path }];
  return step;
}

/** The dependencies of a flag, once every flag exists: added and removed to match the source. */
export function dependencyStep(flag: SourceFlag, have: Flag | undefined): Step | null {
  const current: SourceFlag['dependencies'] = have?.dependencies ?? [];
  if (flag.dependencies.length === 0 && current.length === 0) return null;
  const name = `${flag.project}/${flag.name}`;
  if (same(dependenciesKey(current), dependenciesKey(flag.dependencies))) return { kind: 'dependencies', name, action: 'unchanged', ops: [] };
  const path = `${FLAG(flag.project, flag.name)}/dependencies`;
  const ops: Op[] = [];
  if (have?.archived) ops.push({ method: 'POST', path: `/api/admin/projects/${e(flag.project)}/revive`, body: { features: [flag.name] } });
  if (current.length > 0) ops.push({ method: 'DELETE', path });
  for (const d of flag.dependencies) ops.push({ method: 'POST', path, body: d.enabled ? { feature: d.feature, enabled: true, ...(d.variants ? { variants: d.variants } : {}) } : { feature: d.feature, enabled: false } });
  const step: Step = { kind: 'dependencies', name, action: current.length === 0 ? 'create' : 'update', ops };
  if (have?.archived) step.after = [{ method: 'DELETE', path: FLAG(flag.project, flag.name) }];
  return step;
}
