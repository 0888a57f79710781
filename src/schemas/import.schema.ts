/**
 * Bodies of export and import in Unleash 6.10's format (`POST /api/admin/features-batch/export`, `/validate`,
 * `/import`; Unleash's `exportQuerySchema`, `exportResultSchema`, `importTogglesSchema`). Every list is
 * bounded (`SHAPE_LIMITS.importFlags`, `importItems`); every entry is checked with the schema the matching
 * single-item route uses, so an import accepts exactly what the routes one by one would.
 */
import * as v from 'valibot';
import { SHAPE_LIMITS } from '../limits.js';
import {
  EnvironmentNameSchema,
  FlagNameSchema,
  ProjectIdSchema,
  boundedString,
  integerIn,
  looseObject,
  nonEmptyString,
  strictBoolean,
  strictObject,
} from './common.schema.js';
import { contextFieldEntries, DefinitionNameSchema } from './definition.schema.js';
import { CreateDependencySchema } from './dependency.schema.js';
import { FLAG_TYPES } from './feature.schema.js';
import { mustBe, oneOf } from './messages.js';
import { rolloutCheck, strategyEntries } from './strategy.schema.js';
import { CreateTagTypeSchema, TagTypeNameSchema, TagValueSchema } from './tag.schema.js';
import { VariantsSchema } from './variant.schema.js';

const { importFlags, importItems, batch } = SHAPE_LIMITS;

/** A bounded array of `item`. */
function listOf<T extends v.GenericSchema>(item: T, max: number, what: string) {
  return v.pipe(v.array(item, mustBe(`an array of ${what}`)), v.maxLength(max, `must hold at most ${max} ${what}`));
}

/** Fields Unleash writes into an export that an import does not read (accepted, ignored). */
const ignored = {
  createdAt: v.optional(v.unknown()),
  lastSeenAt: v.optional(v.unknown()),
  archivedAt: v.optional(v.unknown()),
  createdByUserId: v.optional(v.unknown()),
  milestoneId: v.optional(v.unknown()),
};

/** One flag of an export (`features[]`): Unleash's `featureSchema` fields an import uses; `description` may be null. */
export const ImportFeatureSchema = strictObject({
  name: FlagNameSchema,
  description: v.optional(v.nullable(boundedString(SHAPE_LIMITS.description)), null),
  type: v.optional(v.picklist(FLAG_TYPES, oneOf(FLAG_TYPES)), 'release'),
  project: v.optional(v.nullable(v.string(mustBe('a string')))),
  stale: v.optional(v.nullable(strictBoolean()), false),
  impressionData: v.optional(v.nullable(strictBoolean()), false),
  archived: v.optional(v.nullable(strictBoolean()), false),
  variants: v.optional(v.unknown()),
  ...ignored,
});

/** One strategy of an export (`featureStrategies[]`): a strategy body plus the flag it belongs to and its old id. */
export const ImportStrategySchema = v.pipe(
  strictObject({ ...strategyEntries, featureName: FlagNameSchema, id: v.optional(v.unknown()), ...ignored }),
  rolloutCheck(),
);

/** One flag in the exported environment (`featureEnvironments[]`): on or off, and its variants there. */
export const ImportFeatureEnvironmentSchema = strictObject({
  featureName: FlagNameSchema,
  name: v.optional(v.string(mustBe('a string'))),
  enabled: strictBoolean(),
  environment: v.optional(v.string(mustBe('a string'))),
  variants: v.optional(v.nullable(VariantsSchema), null),
  ...ignored,
});

/** One tag of a flag (`featureTags[]`). */
export const ImportFeatureTagSchema = strictObject({
  featureName: FlagNameSchema,
  tagType: TagTypeNameSchema,
  tagValue: TagValueSchema,
  createdByUserId: v.optional(v.unknown()),
});

/** A segment a strategy names (`segments[]`): matched by name with the segments here. */
export const ImportSegmentSchema = looseObject({ id: integerIn(0), name: nonEmptyString(SHAPE_LIMITS.name) });

/** The parents of one flag (`dependencies[]`). */
export const ImportDependenciesSchema = strictObject({
  feature: FlagNameSchema,
  dependencies: listOf(CreateDependencySchema, SHAPE_LIMITS.dependencyVariants, 'dependencies'),
});

/**
 * A context field of an export: a context field body; Unleash 7.4+ writes `project` for a project's own field,
 * which flagpole (without project fields) creates service-wide.
 */
export const ImportContextFieldSchema = strictObject({ name: DefinitionNameSchema, ...contextFieldEntries, project: v.optional(v.nullable(v.string(mustBe('a string')))) });

/**
 * The lists of an export (Unleash's `exportResultSchema`), each with its entry schema and bound; only `features`
 * and `featureStrategies` are required, as in Unleash. A dry run validates them entry by entry
 * (`import-dry-run-parse.ts`).
 */
export const EXPORT_DATA_LISTS = {
  features: { item: ImportFeatureSchema, max: importFlags, what: 'flags', required: true },
  featureStrategies: { item: ImportStrategySchema, max: importItems, what: 'strategies', required: true },
  featureEnvironments: { item: ImportFeatureEnvironmentSchema, max: importItems, what: 'flag environments', required: false },
  contextFields: { item: ImportContextFieldSchema, max: SHAPE_LIMITS.legalValues, what: 'context fields', required: false },
  featureTags: { item: ImportFeatureTagSchema, max: importItems, what: 'tags', required: false },
  segments: { item: ImportSegmentSchema, max: SHAPE_LIMITS.legalValues, what: 'segments', required: false },
  tagTypes: { item: CreateTagTypeSchema, max: SHAPE_LIMITS.legalValues, what: 'tag types', required: false },
  dependencies: { item: ImportDependenciesSchema, max: importFlags, what: 'dependency entries', required: false },
} as const;

/** Keys of an export that an import accepts and does not read: Unleash 8's flag `links`. */
export const EXPORT_DATA_IGNORED = ['links'] as const;

/** What an export answers and an import reads (Unleash's `exportResultSchema`). */
export const ExportDataSchema = strictObject({
  features: listOf(ImportFeatureSchema, importFlags, 'flags'),
  featureStrategies: listOf(ImportStrategySchema, importItems, 'strategies'),
  featureEnvironments: v.optional(listOf(ImportFeatureEnvironmentSchema, importItems, 'flag environments'), []),
  contextFields: v.optional(listOf(ImportContextFieldSchema, SHAPE_LIMITS.legalValues, 'context fields'), []),
  featureTags: v.optional(listOf(ImportFeatureTagSchema, importItems, 'tags'), []),
  segments: v.optional(listOf(ImportSegmentSchema, SHAPE_LIMITS.legalValues, 'segments'), []),
  tagTypes: v.optional(listOf(CreateTagTypeSchema, SHAPE_LIMITS.legalValues, 'tag types'), []),
  dependencies: v.optional(listOf(ImportDependenciesSchema, importFlags, 'dependency entries'), []),
  links: v.optional(v.unknown()),
});
export type ExportData = v.InferOutput<typeof ExportDataSchema>;

/** Body of `/validate` and `/import` (Unleash's `importTogglesSchema`): where to, and what. */
export const ImportSchema = strictObject({
  project: ProjectIdSchema,
  environment: EnvironmentNameSchema,
  data: ExportDataSchema,
});
export type ImportBody = v.InferOutput<typeof ImportSchema>;

/** Body of `/validate` as the route takes it: any object, read part by part by `parseImportForDryRun`. */
export const ImportDryRunBodySchema = v.pipe(
  v.unknown(),
  v.check((body) => typeof body === 'object' && body !== null && !Array.isArray(body), 'must be an object'),
  v.transform((body) => body as Record<string, unknown>),
);

/**
 * Body of `/export` (Unleash's `exportQuerySchema`): one environment, and the flags by name (`features`), by
 * tag value (`tag`, any tag type; `type:value` names one type) or by `project`; none of them: every flag.
 */
export const ExportQuerySchema = strictObject({
  environment: EnvironmentNameSchema,
  downloadFile: v.optional(strictBoolean(), false),
  features: v.optional(listOf(FlagNameSchema, batch, 'flag names')),
  tag: v.optional(nonEmptyString(SHAPE_LIMITS.tag * 2 + 1)),
  project: v.optional(ProjectIdSchema),
});
export type ExportQuery = v.InferOutput<typeof ExportQuerySchema>;

/** One error or warning of a dry run (Unleash's `importTogglesValidateItemSchema`). */
export const ImportValidateItemSchema = v.object({ message: v.string(), affectedItems: v.array(v.string()) });

/** The answer of `/validate` (Unleash's `importTogglesValidateSchema`). */
export const ImportValidateAnswerSchema = v.object({
  errors: v.array(ImportValidateItemSchema),
  warnings: v.array(ImportValidateItemSchema),
  permissions: v.array(ImportValidateItemSchema),
});
