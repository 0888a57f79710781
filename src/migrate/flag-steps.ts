/**
 * The steps of a migration for flags (metadata, strategies, on/off, variants, tags, archiving) and their
 * dependencies, once every flag exists (`plan.ts`).
 */
import { canonical, dependenciesKey, same, strategyKey, tagsKey, targetStrategy, targetVariants, variantsKey } from './compare.js';
import type { Flag } from '../domain/types.js';
import type { SourceFlag, Strategy } from './source-model.js';
import { strategyBody, type Op, type Step } from './plan.js';

const e = encodeURIComponent;
const FLAG = (p: string, f: string) => `/api/admin/projects/${e(p)}/features/${e(f)}`;

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
