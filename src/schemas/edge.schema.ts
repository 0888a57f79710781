/**
 * What Unleash Edge (the open-source build, 20.x) sends to its upstream besides the SDK routes it shares with
 * every SDK: `POST /edge/validate`, `POST /api/client/metrics/bulk` and `POST /api/client/metrics/edge`, and the
 * answer of the first. The shapes are Edge's own (`unleash-edge-types`, `unleash-types`' `ClientApplication` and
 * `ClientMetricsEnv`): its `Option` fields arrive as `null`, and every key it may add is accepted and ignored.
 */
import * as v from 'valibot';
import { SHAPE_LIMITS } from '../limits.js';
import { looseObject, notReserved } from './common.schema.js';
import { AppNameSchema, ClientDateSchema, ClientRegisterSchema, FlagCountsSchema, clientString } from './metrics.schema.js';

const CLIENT = SHAPE_LIMITS.clientName;

/** An array of at most `max` items of `item`; the message never repeats what was sent (it may be a token). */
const boundedArray = <T extends v.GenericSchema>(item: T, max: number, what: string) =>
  v.pipe(v.array(item, `must be an array of ${what}`), v.maxLength(max, `must list at most ${max} ${what}`));

/** `POST /edge/validate`: the token texts Edge has met (`ValidateTokensRequest`), sent without `Authorization`. */
export const EdgeValidateSchema = looseObject({
  tokens: boundedArray(clientString(SHAPE_LIMITS.edgeToken), SHAPE_LIMITS.edgeTokens, 'tokens'),
});
export type EdgeValidateBody = v.InferOutput<typeof EdgeValidateSchema>;

/** One valid token as Edge reads it back (`EdgeToken`): the text it sent, with the scope it may serve. */
export const EdgeTokenView = v.object({
  token: v.string(),
  type: v.picklist(['admin', 'client', 'frontend']),
  projects: v.array(v.string()),
  environment: v.string(),
});
export type EdgeToken = v.InferOutput<typeof EdgeTokenView>;

/** The answer of `POST /edge/validate`: the valid tokens only, in the order sent. */
export const EdgeTokensView = v.object({ tokens: v.array(EdgeTokenView) });

/**
 * One metric entry of a batch (`ClientMetricsEnv`): an application's counts of one flag in one environment over
 * the hour starting at `timestamp`. The flag name is held to the rules of a counted name, as in an SDK's bucket.
 */
export const BulkMetricSchema = v.intersect([
  looseObject({
    featureName: v.pipe(clientString(SHAPE_LIMITS.name), notReserved()),
    appName: AppNameSchema,
    environment: clientString(CLIENT),
    timestamp: ClientDateSchema,
  }),
  FlagCountsSchema,
]);
export type BulkMetricBody = v.InferOutput<typeof BulkMetricSchema>;

/**
 * `POST /api/client/metrics/bulk` (`MetricsBatch`): the registrations and counts Edge gathered from the SDKs
 * behind it, one batch per environment. Each application is an SDK registration (Edge sends `started` and
 * `interval` with every one); `impactMetrics` and `seenTokens` are accepted and not kept. Both lists are
 * required, as Unleash's `bulkMetricsSchema` requires them (Edge always sends both, empty or not).
 */
export const BulkMetricsSchema = looseObject({
  applications: boundedArray(ClientRegisterSchema, SHAPE_LIMITS.bulkApplications, 'applications'),
  metrics: boundedArray(BulkMetricSchema, SHAPE_LIMITS.bulkMetrics, 'metric entries'),
});
export type BulkMetricsBody = v.InferOutput<typeof BulkMetricsSchema>;

/**
 * `POST /api/client/metrics/edge` (`EdgeInstanceData`): an Edge's report on itself and the Edges behind it
 * (traffic, latency, process figures). Checked to be such a report and not kept.
 */
export const EdgeInstanceDataSchema = looseObject({
  identifier: clientString(CLIENT),
  appName: AppNameSchema,
  edgeVersion: clientString(CLIENT),
});
