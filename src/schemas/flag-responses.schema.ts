/**
 * Answers about flags: a flag's record, detail and archive entry, its strategies, variants and tags.
 * Typed views (`src/http/answers/views.ts`) and the OpenAPI document read them; nothing is parsed with them on the hot path.
 */
import * as v from 'valibot';
import { FLAG_TYPES } from './feature.schema.js';
import { StageEntryView } from './lifecycle.schema.js';
import { StrategyRecordSchema } from './strategy.schema.js';
import { VariantSchema } from './variant.schema.js';

const isoDate = v.pipe(v.string(), v.isoTimestamp());

/** The flag record (docs/admin-contract.md §2.3) plus `impressionData`: the answer of create, update, patch and clone. */
export const FlagRecordView = v.object({
  name: v.string(),
  description: v.string(),
  type: v.picklist(FLAG_TYPES),
  project: v.string(),
  stale: v.boolean(),
  impressionData: v.boolean(),
  createdAt: isoDate,
  lastSeenAt: v.nullable(isoDate),
  variants: v.nullable(v.array(VariantSchema)),
});
export type FlagRecordView = v.InferOutput<typeof FlagRecordView>;

/** An archived flag in `GET /api/admin/archive/features/:projectId` (Unleash 6.10 `archivedFeatureSchema`). */
export const ArchivedFlagView = v.object({
  ...v.omit(FlagRecordView, ['lastSeenAt', 'variants']).entries,
  archivedAt: v.nullable(isoDate),
  lastSeenAt: v.nullable(isoDate),
});
export type ArchivedFlagView = v.InferOutput<typeof ArchivedFlagView>;

/** A stored strategy. */
export const StrategyView = StrategyRecordSchema;

/** The single-flag GET: the record plus `archived` and every environment with its strategies. */
export const FlagDetailView = v.object({
  ...FlagRecordView.entries,
  archived: v.boolean(),
  archivedAt: v.nullable(isoDate),
  environments: v.array(v.object({
    name: v.string(),
    enabled: v.boolean(),
    type: v.string(),
    sortOrder: v.number(),
    strategies: v.array(StrategyView),
    /** When an SDK last reported the flag in this environment. */
    lastSeenAt: v.nullable(isoDate),
  })),
  /** Its tags, in the order they were added. */
  tags: v.array(v.object({ type: v.string(), value: v.string() })),
  /** Its parents (Unleash's `dependencies`) and the active flags that depend on it (`children`). */
  dependencies: v.array(v.object({ feature: v.string(), enabled: v.boolean(), variants: v.optional(v.array(v.string())) })),
  children: v.array(v.string()),
  /** The stage it is in now (Unleash's `lifecycle`; `status` when completed). */
  lifecycle: StageEntryView,
});
export type FlagDetailView = v.InferOutput<typeof FlagDetailView>;

/** A tag. */
export const TagView = v.object({ type: v.string(), value: v.string() });
/** A flag's tags (Unleash's `tagsSchema`). */
export const TagsView = v.object({ version: v.literal(1), tags: v.array(TagView) });
/** A tag type (Unleash's `tagTypeSchema`). */
export const TagTypeView = v.object({ name: v.string(), description: v.string(), icon: v.nullable(v.string()), color: v.nullable(v.string()) });
/** Every tag type. */
export const TagTypesView = v.object({ version: v.literal(1), tagTypes: v.array(TagTypeView) });
/** One tag type. */
export const TagTypeOneView = v.object({ version: v.literal(1), tagType: TagTypeView });

/** The answer of the variants endpoints (docs/admin-contract.md §4.14: a string version). */
export const VariantsView = v.object({ version: v.literal('1'), variants: v.array(VariantSchema) });
