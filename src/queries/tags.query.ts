/** Reads of tag types, of a flag's tags and of the flags a tag filter selects, from the committed states. */
import type { Registry } from '../actors/registry.js';
import { fail } from '../domain/errors.js';
import type { ProjectState } from '../domain/project-state.js';
import type { TagType } from '../domain/service-state.js';
import type { Flag, Tag } from '../domain/types.js';
import { failed, ok, type Result } from '../domain/result.js';

/** Every tag type, in creation order. */
export const tagTypes = (registry: Registry): TagType[] => registry.service.state.tagTypes;

/** One tag type; 404 when unknown. */
export function tagTypeByName(registry: Registry, name: string): Result<TagType> {
  const found = registry.service.state.tagTypes.find((t) => t.name === name);
  return found ? ok(found) : failed(fail('NotFoundError', `Tagtype ${name} could not be found`));
}

/** The tags of a flag, archived flags included; 404 when the project has no such flag. */
export function flagTags(state: ProjectState, name: string): Result<Tag[]> {
  const flag = state.flags.get(name);
  if (!flag) return failed(fail('NotFoundError', `Could not find feature flag "${name}" in project "${state.meta.id}"`));
  return ok(flag.tags ?? []);
}

/**
 * The project holding flag `name`, for the routes that name a flag without its project
 * (`/api/admin/features/:featureName/...`): 404 when none does, 409 when several do (flag names are unique
 * per project only, docs/api-decisions.md "Tags").
 */
export function projectOfFlag(registry: Registry, name: string): Result<string> {
  const holders = registry.projectIds().filter((id) => registry.project(id)?.state.flags.has(name));
  if (holders.length === 0) return failed(fail('NotFoundError', `Could not find feature flag "${name}"`));
  if (holders.length > 1) {
    return failed(fail('InvalidOperationError', `Flags named "${name}" exist in projects ${holders.slice(0, 10).map((p) => `"${p}"`).join(', ')}; use PUT /api/admin/projects/:projectId/tags for one of them`));
  }
  return ok(holders[0]!);
}

/** `type:value` filters as tags (split at the first colon). */
export const parseTagFilters = (filters: readonly string[]): Tag[] =>
  filters.map((f) => ({ type: f.slice(0, f.indexOf(':')), value: f.slice(f.indexOf(':') + 1) }));

/** Whether the flag carries one of `wanted` (no filter: every flag; Unleash's tag filters are alternatives). */
export function hasAnyTag(flag: Flag, wanted: readonly Tag[]): boolean {
  if (wanted.length === 0) return true;
  const tags = flag.tags;
  return tags !== undefined && tags.some((t) => wanted.some((w) => w.type === t.type && w.value === t.value));
}

/**
 * Every distinct tag carried by a flag of any project (archived flags included), optionally of one type,
 * sorted by type then value (Unleash's `GET /api/admin/tags`; flagpole keeps no tag that no flag carries).
 */
export function tagsInUse(registry: Registry, type?: string): Tag[] {
  const seen = new Map<string, Tag>();
  for (const id of registry.projectIds()) {
    for (const flag of registry.project(id)?.state.flags.values() ?? []) {
      for (const tag of flag.tags ?? []) if (type === undefined || tag.type === type) seen.set(JSON.stringify([tag.type, tag.value]), tag);
    }
  }
  return [...seen.values()].sort((a, b) => (a.type < b.type ? -1 : a.type > b.type ? 1 : a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
}
