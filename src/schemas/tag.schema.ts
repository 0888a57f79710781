/**
 * Bodies, paths and queries of the tag routes (docs/api-decisions.md "Tags").
 * Tag values and tag type names are 2 to 50 characters as in Unleash 6.10; a value is trimmed first.
 */
import * as v from 'valibot';
import { SHAPE_LIMITS } from '../limits.js';
import { FlagNameSchema, boundedString, looseObject, notReserved, strictObject } from './common.schema.js';
import { TagFilterSchema, repeatable } from './client.schema.js';
import { isUrlFriendly } from './formats.js';
import { mustBe } from './messages.js';

const { tagMin, tag: tagMax } = SHAPE_LIMITS;

/**
 * A tag type name: 2 to 50 characters, URL-friendly, not reserved.
 *
 * @example v.parse(TagTypeNameSchema, 'team') // 'team'
 */
export const TagTypeNameSchema = v.pipe(
  v.string(mustBe('a string')),
  v.minLength(tagMin, `must be at least ${tagMin} characters`),
  v.maxLength(tagMax, `must be at most ${tagMax} characters`),
  v.check(isUrlFriendly, "must be URL-friendly (letters, digits and - _ . ! ~ * ' ( ) only, not . or ..)"),
  notReserved(),
);

/** A tag value: trimmed, then 2 to 50 characters. */
export const TagValueSchema = v.pipe(
  v.string(mustBe('a string')),
  v.trim(),
  v.minLength(tagMin, `must be at least ${tagMin} characters (leading and trailing whitespace is trimmed)`),
  v.maxLength(tagMax, `must be at most ${tagMax} characters`),
);

/** A hexadecimal colour `#RRGGBB`; null or `""` for none. */
const ColorSchema = v.optional(v.nullable(v.union([
  v.literal(''),
  v.pipe(v.string(mustBe('a string')), v.regex(/^#[0-9A-Fa-f]{6}$/, 'must be a colour like #1a2B3c')),
], mustBe('a colour like #1a2B3c, "" or null'))), null);

/**
 * A tag: `{type, value}`; `type` defaults to `simple` (Unleash's `tagSchema`); `color` is accepted and ignored.
 *
 * @example v.parse(TagSchema, { value: ' beta ' }) // { type: 'simple', value: 'beta' }
 */
export const TagSchema = v.pipe(
  strictObject({ value: TagValueSchema, type: v.optional(TagTypeNameSchema, 'simple'), color: ColorSchema }),
  v.transform(({ type, value }) => ({ type, value })),
);
export type TagBody = v.InferOutput<typeof TagSchema>;

const TagListSchema = v.pipe(
  v.array(TagSchema, mustBe('an array of tags')),
  v.maxLength(SHAPE_LIMITS.tagChanges, `must list at most ${SHAPE_LIMITS.tagChanges} tags`),
);

/** Body of `PUT /api/admin/features/:featureName/tags`: tags to add and to remove. */
export const UpdateTagsSchema = strictObject({ addedTags: TagListSchema, removedTags: TagListSchema });

/** Body of `PUT /api/admin/projects/:projectId/tags` (Unleash's `tagsBulkAddSchema`). */
export const BulkTagsSchema = strictObject({
  features: v.pipe(
    v.array(FlagNameSchema, mustBe('an array of flag names')),
    v.minLength(1, 'must list at least one flag'),
    v.maxLength(SHAPE_LIMITS.batch, `must list at most ${SHAPE_LIMITS.batch} flags`),
  ),
  tags: UpdateTagsSchema,
});

const TagTypeFields = {
  description: v.optional(boundedString(SHAPE_LIMITS.tagTypeDescription), ''),
  icon: v.optional(v.nullable(boundedString(SHAPE_LIMITS.tagTypeIcon)), null),
  color: ColorSchema,
};

/** Body of `POST /api/admin/tag-types` and `/validate`. */
export const CreateTagTypeSchema = strictObject({ name: TagTypeNameSchema, ...TagTypeFields });

/** Body of `PUT /api/admin/tag-types/:name`: a `name` must equal the path's (checked by the route). */
export const UpdateTagTypeSchema = strictObject({ name: v.optional(v.string(mustBe('a string'))), ...TagTypeFields });

/** `/api/admin/tag-types/:name` */
export const TagTypeParamsSchema = looseObject({ name: TagTypeNameSchema });

/** `/api/admin/features/:featureName/tags` */
export const FlagTagsParamsSchema = looseObject({ featureName: FlagNameSchema });

/** `/api/admin/features/:featureName/tags/:type/:value` (the value is matched as given, after trimming). */
export const FlagTagParamsSchema = looseObject({ featureName: FlagNameSchema, type: TagTypeNameSchema, value: TagValueSchema });

/**
 * Query of the project flag list: `tag=type:value`, repeatable, a flag with any of them is listed (as
 * Unleash); `namePrefix`: only flags whose name starts with it. Both given: flags that pass both.
 */
export const FlagListQuerySchema = looseObject({ tag: repeatable(TagFilterSchema), namePrefix: v.optional(boundedString(SHAPE_LIMITS.name)) });
