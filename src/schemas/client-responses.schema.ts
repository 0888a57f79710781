/**
 * Answers of the client (backend SDK) API: flags, strategies and segments as SDKs read them, and the delta.
 * Typed views (`src/http/answers/views.ts`) and the OpenAPI document read them; nothing is parsed with them on the hot path.
 */
import * as v from 'valibot';
import { ConstraintSchema } from './constraint.schema.js';
import { FLAG_TYPES } from './feature.schema.js';
import { VariantSchema } from './variant.schema.js';

/** A strategy as backend SDKs read it: no id, title, sort order or `disabled`; `segments` only when it names some. */
export const ClientStrategyView = v.object({
  name: v.string(),
  constraints: v.array(ConstraintSchema),
  parameters: v.record(v.string(), v.string()),
  variants: v.array(VariantSchema),
  segments: v.optional(v.array(v.number())),
});

/** A flag as backend SDKs read it in one environment (`GET /api/client/features/:featureName`). */
export const ClientFeatureView = v.object({
  name: v.string(),
  type: v.picklist(FLAG_TYPES),
  description: v.string(),
  project: v.string(),
  enabled: v.boolean(),
  stale: v.boolean(),
  impressionData: v.boolean(),
  strategies: v.array(ClientStrategyView),
  variants: v.array(VariantSchema),
  dependencies: v.array(v.object({ feature: v.string(), enabled: v.boolean(), variants: v.optional(v.array(v.string())) })),
});

/** A segment as backend SDKs read it. */
export const ClientSegmentView = v.object({ id: v.number(), name: v.string(), constraints: v.array(ConstraintSchema) });

/**
 * `GET /api/client/features`: `segments` only for an `Unleash-Client-Spec` of 4.2.0 or newer (else their
 * constraints are inlined into the strategies); `meta.etag` is the answer's `ETag`.
 */
export const ClientFeaturesView = v.object({
  version: v.literal(2),
  features: v.array(ClientFeatureView),
  query: v.object({
    project: v.array(v.string()),
    namePrefix: v.optional(v.string()),
    tag: v.optional(v.array(v.string())),
    environment: v.string(),
    inlineSegmentConstraints: v.boolean(),
  }),
  segments: v.optional(v.array(ClientSegmentView)),
  meta: v.object({ revisionId: v.number(), etag: v.string(), queryHash: v.string() }),
});

/**
 * `GET /api/client/delta` (and the `data` of each streamed message): `hydration` (`features`, `segments`),
 * `feature-updated` (`feature`), `feature-removed` (`featureName`, `project`), `segment-updated` (`segment`),
 * `segment-removed` (`segmentId`), each with the revision it brings the client to as `eventId`.
 */
export const ClientDeltaView = v.object({
  events: v.array(v.looseObject({
    type: v.picklist(['hydration', 'feature-updated', 'feature-removed', 'segment-updated', 'segment-removed']),
    eventId: v.number(),
  })),
});
