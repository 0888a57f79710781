import type { FlagMetadata } from '../../domain/events.js';
import type { Dependency, Flag, FlagEnvironment, ProjectMeta, Tag } from '../../domain/types.js';
import { lists, moved, pathOf, scalar, words, type FieldChange } from './change-words.js';
import { strategyLabel, strategyListChanges, strategyWords, variantChanges } from './strategy-diff.js';

/** A tag as pages show it: `type:value`. */
export const tagWords = (t: Tag): string => `${t.type}:${t.value}`;

/** A dependency in words: `parent`, `not parent`, `parent (variants a, b)`. */
export const dependencyWords = (d: Dependency): string =>
  `${d.enabled ? '' : 'not '}${d.feature}${d.variants?.length ? ` (variants ${d.variants.join(', ')})` : ''}`;

/** The metadata fields of a flag that a person edits: description, type, stale, impression data. */
export function metadataChanges(before: Partial<FlagMetadata>, after: Partial<FlagMetadata>, out: FieldChange[]): void {
  scalar('description', before.description, after.description, out);
  scalar('type', before.type, after.type, out);
  scalar('stale', before.stale, after.stale, out);
  scalar('impression data', before.impressionData, after.impressionData, out);
}

const NO_ENVIRONMENT: FlagEnvironment = { enabled: false, strategies: [] };

/** One environment of a flag: on/off, its strategies (added, removed, changed) and their order. */
export function environmentChanges(environment: string, before: FlagEnvironment, after: FlagEnvironment, out: FieldChange[]): void {
  // Records are immutable: an entry both versions share did not change (the common case between two moments).
  if (before === after) return;
  scalar(environment, before.enabled, after.enabled, out);
  strategyListChanges(environment, before.strategies, after.strategies, out);
  const kept = new Set(after.strategies.map((s) => s.id));
  const was = before.strategies.filter((s) => kept.has(s.id)).map((s) => s.id);
  const now = after.strategies.filter((s) => was.includes(s.id));
  if (now.some((s, i) => s.id !== was[i])) {
    const label = new Map(after.strategies.map((s) => [s.id, strategyLabel(s)]));
    out.push(moved(pathOf(environment, 'strategy order'), was.map((id) => label.get(id)).join(', '), now.map((s) => label.get(s.id)).join(', ')));
  }
}

/** A flag before it had anything: what a created flag is compared with. */
const blank = (flag: Flag): Flag => ({
  ...flag, description: '', stale: false, impressionData: false, archived: false, variants: [], environments: {}, tags: [], dependencies: [],
});

/**
 * Every field that differs between two versions of a flag (its version, creation time and last-seen time
 * aside): metadata, archived, each environment, variants, tags, dependencies. A created flag (`before` null)
 * is compared with an empty one after a first line naming its type; a deleted one (`after` null) is one line.
 *
 * @example flagChanges(atNine, atTen) // [{ path: 'development', before: 'off', after: 'on', text: 'development: off → on' }]
 */
export function flagChanges(before: Flag | null, after: Flag | null): FieldChange[] {
  const out: FieldChange[] = [];
  if (!after) {
    if (before) out.push(moved('flag', before.archived ? 'archived' : 'active', 'deleted'));
    return out;
  }
  if (!before) out.push(moved('flag', null, `created (${after.type})`));
  const was = before ?? blank(after);
  metadataChanges(was, after, out);
  if (was.archived !== after.archived) out.push(moved('archived', was.archived ? 'yes' : 'no', after.archived ? 'yes' : 'no'));
  const environments = new Set([...Object.keys(was.environments), ...Object.keys(after.environments)]);
  for (const env of environments) environmentChanges(env, was.environments[env] ?? NO_ENVIRONMENT, after.environments[env] ?? NO_ENVIRONMENT, out);
  if (was.variants !== after.variants) variantChanges('variants', was.variants, after.variants, out);
  lists('tags', (was.tags ?? []).map(tagWords), (after.tags ?? []).map(tagWords), out);
  lists('dependencies', (was.dependencies ?? []).map(dependencyWords), (after.dependencies ?? []).map(dependencyWords), out);
  return out;
}

/**
 * What moved in a project's settings: name, description, mode, default stickiness, connected environments,
 * default strategies, members (user ids with their role ids). `before` null: the project was created.
 */
export function metaChanges(before: ProjectMeta | null, after: ProjectMeta, out: FieldChange[] = []): FieldChange[] {
  if (!before) out.push(moved('project', null, `created "${after.name}"`));
  scalar('name', before?.name ?? after.name, after.name, out);
  scalar('description', before?.description ?? '', after.description, out);
  scalar('mode', before?.mode ?? 'open', after.mode ?? 'open', out);
  scalar('default stickiness', before?.defaultStickiness ?? 'default', after.defaultStickiness ?? 'default', out);
  lists('environments', before?.environments ?? [], after.environments, out);
  const defaults = new Set([...Object.keys(before?.defaultStrategies ?? {}), ...Object.keys(after.defaultStrategies)]);
  for (const env of defaults) {
    const b = before?.defaultStrategies[env];
    const a = after.defaultStrategies[env];
    scalar(pathOf(env, 'default strategy'), b && strategyWords(b), a && strategyWords(a), out, words);
  }
  const member = (m: Record<string, number>) => Object.entries(m).map(([user, role]) => `user ${user} (role ${role})`);
  lists('members', member(before?.members ?? {}), member(after.members), out);
  return out;
}
