/**
 * Bodies of the flag routes (docs/api-decisions.md "Flags"): create, update (PUT),
 * the result of a JSON Patch of the flag record, clone, batch delete, revive.
 */
import * as v from 'valibot';
import { SHAPE_LIMITS } from '../limits.js';
import {
  DescriptionSchema,
  FlagNameSchema,
  strictBoolean,
  nonEmptyString,
  strictObject,
} from './common.schema.js';
import { mustBe, oneOf } from './messages.js';

/** The flag types, `release` first because it is the default; `sunset` came with Unleash 8.0. */
export const FLAG_TYPES = ['release', 'experiment', 'operational', 'kill-switch', 'permission', 'sunset'] as const;

/** A flag type. */
export type FlagType = (typeof FLAG_TYPES)[number];

/** A flag type; absent means `release`. */
export const FlagTypeSchema = v.optional(v.picklist(FLAG_TYPES, oneOf(FLAG_TYPES)), 'release');

/**
 * Body of `POST /api/admin/projects/:projectId/features`.
 *
 * @example v.parse(CreateFeatureSchema, { name: 'checkout' })
 * // { name: 'checkout', description: '', type: 'release', impressionData: false }
 */
export const CreateFeatureSchema = strictObject({
  name: FlagNameSchema,
  description: DescriptionSchema,
  type: FlagTypeSchema,
  impressionData: v.optional(strictBoolean(), false),
});
export type CreateFeature = v.InferOutput<typeof CreateFeatureSchema>;

/**
 * Read-only fields of a flag record. A client that GETs a flag, edits it and
 * PUTs it back sends them; they are accepted (any value) and dropped, since the
 * server owns them. Changing `name` is refused by the route, not here.
 */
const READ_ONLY_FIELDS = [
  'project', 'createdAt', 'lastSeenAt', 'archived', 'archivedAt',
  'environments', 'variants', 'favorite', 'enabled',
] as const;

const readOnlyEntries = Object.fromEntries(
  READ_ONLY_FIELDS.map((key) => [key, v.optional(v.unknown())]),
) as Record<(typeof READ_ONLY_FIELDS)[number], v.OptionalSchema<v.UnknownSchema, undefined>>;

/** The fields a PUT replaces; absent ones go back to their defaults. */
const flagMetadataSchema = v.pipe(
  strictObject({
    name: FlagNameSchema,
    description: DescriptionSchema,
    type: FlagTypeSchema,
    stale: v.optional(strictBoolean(), false),
    impressionData: v.optional(strictBoolean(), false),
    ...readOnlyEntries,
  }),
  v.transform(({ name, description, type, stale, impressionData }) => ({
    name, description, type, stale, impressionData,
  })),
);

/**
 * Body of `PUT .../features/:featureName`: `name` (must equal the path, checked
 * by the route), `description`, `type`, `stale`, `impressionData`; read-only
 * record fields are ignored, anything else is an issue.
 *
 * @example v.parse(UpdateFeatureSchema, { name: 'a', stale: true, createdAt: 'x' })
 * // { name: 'a', description: '', type: 'release', stale: true, impressionData: false }
 */
export const UpdateFeatureSchema = flagMetadataSchema;
export type UpdateFeature = v.InferOutput<typeof UpdateFeatureSchema>;

/**
 * The flag record after a JSON Patch (`PATCH .../features/:featureName`): it
 * must still be a valid PUT body. The route refuses operations on `name`,
 * `project`, `createdAt`, `lastSeenAt` and `/variants` before applying them.
 */
export const FeatureRecordSchema = flagMetadataSchema;
export type FeatureRecord = v.InferOutput<typeof FeatureRecordSchema>;

/**
 * Body of `POST .../features/:featureName/clone`. `replaceGroupId` (default
 * true, as in Unleash) asks to rewrite a `groupId` equal to the source name.
 */
export const CloneFeatureSchema = strictObject({
  name: FlagNameSchema,
  replaceGroupId: v.optional(strictBoolean(), true),
});
export type CloneFeature = v.InferOutput<typeof CloneFeatureSchema>;

/** Most names one batch request may list. */
export const BATCH_MAX = SHAPE_LIMITS.batch;

/**
 * Body of `POST /api/admin/projects/:projectId/delete`: `{ features: string[] }`.
 * Names are not checked against the flag name rules: unknown names are simply
 * left alone by the route.
 */
export const BatchFeaturesSchema = strictObject({
  features: v.pipe(
    v.array(nonEmptyString(100), mustBe('an array of flag names')),
    v.maxLength(BATCH_MAX, `must list at most ${BATCH_MAX} flags`),
  ),
});
export type BatchFeatures = v.InferOutput<typeof BatchFeaturesSchema>;

/** Body of `POST /api/admin/projects/:projectId/stale` (Unleash 6.10 `batchStaleSchema`). */
export const BatchStaleSchema = strictObject({
  features: BatchFeaturesSchema.entries.features,
  stale: strictBoolean(),
});
export type BatchStale = v.InferOutput<typeof BatchStaleSchema>;

/** Body of `POST /api/admin/projects/:projectId/revive`: same shape as batch delete. */
export const ReviveSchema = BatchFeaturesSchema;
export type Revive = v.InferOutput<typeof ReviveSchema>;
