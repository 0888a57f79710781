/**
 * Tag types and the tags of flags (docs/api-decisions.md "Tags"; Unleash 6.10's `/api/admin/tag-types`,
 * `/api/admin/features/:featureName/tags` and `PUT /api/admin/projects/:projectId/tags`). The routes that
 * name a flag without its project (`scope: 'flag'`) act in the project holding it.
 */
import { ProjectParamsSchema } from '../../schemas/params.schema.js';
import {
  BulkTagsSchema, CreateTagTypeSchema, FlagTagParamsSchema, FlagTagsParamsSchema, TagSchema, TagTypeParamsSchema, UpdateTagTypeSchema, UpdateTagsSchema,
} from '../../schemas/tag.schema.js';
import { flagTags, tagTypeByName, tagTypes, tagsInUse } from '../../queries/tags.query.js';
import { changeTags, createTagType, deleteTagType, updateTagType } from '../../use-cases/tags.use-cases.js';
import { apiError } from '../errors.js';
import { defineRoute, type RouteSpec } from '../route.js';
import { TagTypeOneView, TagTypeView, TagTypesView, TagView, TagsView } from '../answers/views.js';

const TAG_TYPE = '/api/admin/tag-types/:name';
const FLAG_TAGS = '/api/admin/features/:featureName/tags';
const tagsView = (tags: { type: string; value: string }[]) => ({ version: 1 as const, tags });

export const tagRoutes: RouteSpec[] = [
  defineRoute({
    method: 'get', path: '/api/admin/tag-types', tag: 'Tags', permission: 'READ',
    summary: 'List the tag types', success: { status: 200, description: '`{version: 1, tagTypes}`', schema: TagTypesView },
    handle: ({ c, registry }) => c.json({ version: 1, tagTypes: tagTypes(registry) }),
  }),
  defineRoute({
    method: 'post', path: '/api/admin/tag-types', tag: 'Tags', permission: 'UPDATE_TAG_TYPE',
    summary: 'Create a tag type', body: CreateTagTypeSchema,
    success: { status: 201, description: 'The tag type', schema: TagTypeView }, errors: ['NameExistsError', 'ExceedsLimitError'],
    handle: ({ body, principal, registry }) => createTagType(registry, { ...body, color: body.color || null }, principal),
    view: (tagType) => tagType,
  }),
  defineRoute({
    method: 'post', path: '/api/admin/tag-types/validate', tag: 'Tags', permission: 'READ',
    summary: 'Check that a tag type body is valid and its name free (200), without creating it', body: CreateTagTypeSchema,
    success: { status: 200, description: '`{valid: true, tagType}`' }, errors: ['NameExistsError'],
    handle: ({ c, body, registry }) => {
      if (tagTypeByName(registry, body.name).ok) throw apiError('NameExistsError', `There already exists a tag-type with the name ${body.name}`);
      return c.json({ valid: true, tagType: { ...body, color: body.color || null } });
    },
  }),
  defineRoute({
    method: 'get', path: TAG_TYPE, tag: 'Tags', permission: 'READ',
    summary: 'Get a tag type', params: TagTypeParamsSchema,
    success: { status: 200, description: '`{version: 1, tagType}`', schema: TagTypeOneView }, errors: ['NotFoundError'],
    handle: ({ params, registry }) => tagTypeByName(registry, params.name),
    view: (tagType) => ({ version: 1, tagType }),
  }),
  defineRoute({
    method: 'put', path: TAG_TYPE, tag: 'Tags', permission: 'UPDATE_TAG_TYPE',
    summary: 'Replace the description, icon and colour of a tag type', params: TagTypeParamsSchema, body: UpdateTagTypeSchema,
    success: { status: 200, description: 'No body' }, errors: ['NotFoundError'],
    handle: ({ params, body, principal, registry }) => {
      if (body.name !== undefined && body.name !== params.name) throw apiError('ValidationError', `"name": must equal the tag type in the path ("${params.name}"); tag types cannot be renamed`);
      return updateTagType(registry, { name: params.name, description: body.description, icon: body.icon, color: body.color || null }, principal);
    },
  }),
  defineRoute({
    method: 'delete', path: TAG_TYPE, tag: 'Tags', permission: 'UPDATE_TAG_TYPE',
    summary: 'Delete a tag type, removing its tags from every flag that carries one (archived flags too)', params: TagTypeParamsSchema,
    success: { status: 200, description: 'No body' }, errors: ['NotFoundError', 'Unavailable'],
    handle: ({ params, principal, registry }) => deleteTagType(registry, params.name, principal),
  }),
  defineRoute({
    method: 'get', path: '/api/admin/tags', tag: 'Tags', permission: 'READ',
    summary: 'List the distinct tags that flags carry, by type and value', success: { status: 200, description: '`{version: 1, tags}`', schema: TagsView },
    handle: ({ c, registry }) => c.json({ version: 1, tags: tagsInUse(registry) }),
  }),
  defineRoute({
    method: 'get', path: '/api/admin/tags/:name', tag: 'Tags', permission: 'READ',
    summary: 'List the distinct tags of one type that flags carry', params: TagTypeParamsSchema,
    success: { status: 200, description: '`{version: 1, tags}`', schema: TagsView }, errors: ['NotFoundError'],
    handle: ({ c, params, registry }) => {
      const found = tagTypeByName(registry, params.name);
      return found.ok ? c.json({ version: 1, tags: tagsInUse(registry, params.name) }) : found;
    },
  }),
  defineRoute({
    method: 'get', path: FLAG_TAGS, tag: 'Tags', permission: 'READ', scope: 'flag',
    summary: 'List the tags of a flag (found by name in any project)', params: FlagTagsParamsSchema,
    success: { status: 200, description: '`{version: 1, tags}`', schema: TagsView }, errors: ['NotFoundError', 'InvalidOperationError'],
    handle: ({ params, project }) => flagTags(project().state, params.featureName),
    view: tagsView,
  }),
  defineRoute({
    method: 'post', path: FLAG_TAGS, tag: 'Tags', permission: 'UPDATE_FEATURE', scope: 'flag',
    summary: 'Add a tag to a flag (a tag it has already: 201, nothing changes)', params: FlagTagsParamsSchema, body: TagSchema,
    success: { status: 201, description: 'The tag', schema: TagView }, errors: ['NotFoundError', 'InvalidOperationError', 'ArchivedFeatureError', 'ExceedsLimitError'],
    handle: async ({ c, params, body, principal, registry, project }) => {
      const result = await changeTags(registry, { projectId: project().state.meta.id, features: [params.featureName], added: [body], removed: [] }, principal);
      if (!result.ok) return result;
      c.header('Location', `${params.featureName}/tags`);
      return { ok: true, value: body };
    },
    view: (tag) => tag,
  }),
  defineRoute({
    method: 'put', path: FLAG_TAGS, tag: 'Tags', permission: 'UPDATE_FEATURE', scope: 'flag',
    summary: 'Add and remove tags of a flag', params: FlagTagsParamsSchema, body: UpdateTagsSchema,
    success: { status: 200, description: '`{version: 1, tags}` after the change', schema: TagsView },
    errors: ['NotFoundError', 'InvalidOperationError', 'ArchivedFeatureError', 'ExceedsLimitError'],
    handle: async ({ params, body, principal, registry, project }) => {
      const result = await changeTags(registry, { projectId: project().state.meta.id, features: [params.featureName], added: body.addedTags, removed: body.removedTags }, principal);
      return result.ok ? { ok: true, value: result.value[0] ?? [] } : result;
    },
    view: tagsView,
  }),
  defineRoute({
    method: 'delete', path: `${FLAG_TAGS}/:type/:value`, tag: 'Tags', permission: 'UPDATE_FEATURE', scope: 'flag',
    summary: 'Remove a tag from a flag (one it lacks: 200, nothing changes)', params: FlagTagParamsSchema,
    success: { status: 200, description: 'No body' }, errors: ['NotFoundError', 'InvalidOperationError', 'ArchivedFeatureError'],
    handle: ({ params, principal, registry, project }) =>
      changeTags(registry, { projectId: project().state.meta.id, features: [params.featureName], added: [], removed: [{ type: params.type, value: params.value }] }, principal),
  }),
  defineRoute({
    method: 'put', path: '/api/admin/projects/:projectId/tags', tag: 'Tags', permission: 'UPDATE_FEATURE',
    summary: 'Add and remove tags on several flags of a project, all or nothing', params: ProjectParamsSchema, body: BulkTagsSchema,
    success: { status: 200, description: 'No body' }, errors: ['NotFoundError', 'ArchivedFeatureError', 'ExceedsLimitError'],
    handle: ({ params, body, principal, registry }) =>
      changeTags(registry, { projectId: params.projectId, features: body.features, added: body.tags.addedTags, removed: body.tags.removedTags }, principal),
  }),
];
