/**
 * The steps of a migration for the service's records and the projects: environments, tag types, context
 * fields, strategy definitions, projects, segments, default strategies, users and project roles (`plan.ts`).
 */
import { same, strategyKey, targetStrategy } from './compare.js';
import type { ProjectMeta } from '../domain/types.js';
import type { Environment, User } from '../domain/service-state.js';
import type { SourceData } from './source-model.js';
import type { TargetDump } from './target.js';
import { strategyBody, type Capabilities, type Ids, type Kind, type Op, type Step } from './plan.js';

const e = encodeURIComponent;
const ROLE_IDS: Record<string, number> = { Owner: 4, Member: 5, Reader: 6 };
const ROOT_ROLES = new Set(['Admin', 'Editor', 'Viewer']);

/** Every step but the flags', dependencies' and archive's (those follow in `flag-steps.ts`). */
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
