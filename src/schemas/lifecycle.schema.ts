/**
 * Unleash 6.10's feature lifecycle on the wire (docs/api-decisions.md "Feature lifecycle"): the body of
 * `POST .../lifecycle/complete` (`featureLifecycleCompletedSchema`), a flag's stages
 * (`featureLifecycleSchema`), its current stage (`lifecycle` of `featureSchema` and the search's entries) and
 * the count per stage (`featureLifecycleCountSchema`).
 */
import * as v from 'valibot';
import { SHAPE_LIMITS } from '../limits.js';
import { boundedString, strictObject } from './common.schema.js';
import { oneOf } from './messages.js';

/** The stages, in the order a flag goes through them. */
export const LIFECYCLE_STAGES = ['initial', 'pre-live', 'live', 'completed', 'archived'] as const;
/** A lifecycle stage. */
export type LifecycleStage = (typeof LIFECYCLE_STAGES)[number];

/** How a completed flag ended: its code kept or removed. */
export const COMPLETION_STATUSES = ['kept', 'discarded'] as const;
/** A completion status. */
export type CompletionStatus = (typeof COMPLETION_STATUSES)[number];

/**
 * Body of `POST /api/admin/projects/:projectId/features/:featureName/lifecycle/complete`; `statusValue`: what
 * was kept (a variant's name), shown in the history.
 *
 * @example v.parse(CompleteFlagSchema, { status: 'kept', statusValue: 'blue' })
 */
export const CompleteFlagSchema = strictObject({
  status: v.picklist(COMPLETION_STATUSES, oneOf(COMPLETION_STATUSES)),
  statusValue: v.optional(boundedString(SHAPE_LIMITS.name)),
});
export type CompleteFlagBody = v.InferOutput<typeof CompleteFlagSchema>;

const isoDate = v.pipe(v.string(), v.isoTimestamp());

/** One stage a flag entered; `status` on `completed`. */
export const StageEntryView = v.object({
  stage: v.picklist(LIFECYCLE_STAGES),
  status: v.optional(v.picklist(COMPLETION_STATUSES)),
  enteredStageAt: isoDate,
});
export type StageEntryView = v.InferOutput<typeof StageEntryView>;

/** `GET .../lifecycle`: the stages the flag entered, in the order it entered them. */
export const FlagLifecycleView = v.array(StageEntryView);

/** `GET /api/admin/lifecycle/count`: how many flags are in each stage now. */
export const LifecycleCountView = v.object({
  initial: v.number(),
  preLive: v.number(),
  live: v.number(),
  completed: v.number(),
  archived: v.number(),
});
export type LifecycleCountView = v.InferOutput<typeof LifecycleCountView>;
