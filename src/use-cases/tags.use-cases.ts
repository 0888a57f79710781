/**
 * Tag types and the tags of flags (docs/api-decisions.md "Tags"). Every write runs in the registry's tag
 * mailbox (`registry.tagWrites`), one at a time, because its rule spans the service and the projects: a tag
 * is added only while its type exists (checked here, then decided in the project mailbox), and a type is
 * deleted only after its tags were removed from every flag of every project. Reads of the committed states inside the mailbox see
 * every earlier tag write, since each is durable before the next starts.
 */
import type { Registry } from '../actors/registry.js';
import { principalLabel, type Principal } from '../auth/permissions.js';
import { fail, failAt } from '../domain/errors.js';
import type { TagType } from '../domain/service-state.js';
import type { Tag } from '../domain/types.js';
import { failed, fromDecision, type Result } from '../domain/result.js';
import { sendToProject } from './send-command.js';

/** What changes on which flags of one project. */
export interface TagChange {
  projectId: string;
  features: string[];
  added: Tag[];
  removed: Tag[];
}

/**
 * Adds and removes tags on flags of one project, all or nothing; answers each flag's tags after it. A tag
 * whose type does not exist is a 400 (Unleash 6.10: "Tag type 'x' does not exist").
 *
 * @example await changeTags(registry, { projectId: 'default', features: ['a'], added: [{ type: 'simple', value: 'beta' }], removed: [] }, principal)
 */
export function changeTags(registry: Registry, input: TagChange, principal: Principal): Promise<Result<Tag[][]>> {
  return registry.tagWrites.run(async () => {
    const known = new Set(registry.service.state.tagTypes.map((t) => t.name));
    const unknown = input.added.find((t) => !known.has(t.type));
    if (unknown) return failed(failAt('ValidationError', 'type', `tag type "${unknown.type}" does not exist; create it with POST /api/admin/tag-types first`));
    return sendToProject(registry, input.projectId, { type: 'tags.change', features: input.features, added: input.added, removed: input.removed }, principal);
  });
}

/** Creates a tag type (201); its name must be free (409) and within `LIMIT_TAG_TYPES`. */
export function createTagType(registry: Registry, tagType: TagType, principal: Principal): Promise<Result<TagType>> {
  return registry.tagWrites.run(async () => fromDecision(await registry.service.send({ type: 'tag-type.create', tagType }, principalLabel(principal))));
}

/** Replaces a tag type's description, icon and colour; 404 when unknown. */
export function updateTagType(registry: Registry, tagType: TagType, principal: Principal): Promise<Result<TagType>> {
  return registry.tagWrites.run(async () => fromDecision(await registry.service.send({ type: 'tag-type.update', tagType }, principalLabel(principal))));
}

/**
 * Deletes a tag type and, first, its tags from every flag carrying one (archived flags too), as Unleash does:
 * one `tags.drop-type` command per project that has such a flag, each durable in that project's log (its
 * history shows a `flag.tagged` removal per flag), then the service deletes the type. All of it runs in the tag
 * mailbox, so no tag of the type is added meanwhile. If the process stops half-way, the type is still there
 * and some flags have lost its tags: deleting it again finishes the work. 404 when unknown; 503 while a project
 * that could not be recovered might carry its tags.
 */
export function deleteTagType(registry: Registry, name: string, principal: Principal): Promise<Result<TagType>> {
  return registry.tagWrites.run(async () => {
    if (!registry.service.state.tagTypes.some((t) => t.name === name)) return failed(fail('NotFoundError', `Tagtype ${name} could not be found`));
    const damaged = [...registry.unavailable.keys()];
    if (damaged.length > 0) return failed(fail('Unavailable', `Cannot tell whether projects ${damaged.map((p) => `"${p}"`).join(', ')} (not recovered) use tag type "${name}"; repair them first`));
    for (const projectId of projectsCarrying(registry, name)) {
      const dropped = await sendToProject(registry, projectId, { type: 'tags.drop-type', tagType: name }, principal);
      if (!dropped.ok) return dropped;
    }
    return fromDecision(await registry.service.send({ type: 'tag-type.delete', name }, principalLabel(principal)));
  });
}

/** The projects with a flag (archived ones too) carrying a tag of type `name`. */
function projectsCarrying(registry: Registry, name: string): string[] {
  return registry.projectIds().filter((id) => {
    for (const flag of registry.project(id)?.state.flags.values() ?? []) if (flag.tags?.some((t) => t.type === name)) return true;
    return false;
  });
}
