/** Paths, queries and answers of the change-request routes (docs/api-decisions.md "Change requests"). */
import * as v from 'valibot';
import { EnvironmentNameSchema, FlagNameSchema, IntIdParamSchema, ProjectIdSchema, looseObject } from './common.schema.js';
import { mustBe } from './messages.js';

/** `/api/admin/projects/:projectId/change-requests/:id` */
export const ChangeRequestParamsSchema = looseObject({ projectId: ProjectIdSchema, id: IntIdParamSchema });

/** `.../change-requests/:changeRequestId/changes/:changeId` */
export const ChangeParamsSchema = looseObject({ projectId: ProjectIdSchema, changeRequestId: IntIdParamSchema, changeId: IntIdParamSchema });

/** `.../change-requests/pending/:featureName` */
export const PendingFlagParamsSchema = looseObject({ projectId: ProjectIdSchema, featureName: FlagNameSchema });

/** `.../change-requests/available-reviewers/:environment` */
export const ReviewerParamsSchema = looseObject({ projectId: ProjectIdSchema, environment: EnvironmentNameSchema });

/** Most values one filter of `scheduled` lists. */
const SCHEDULED_VALUES = 100;

/** A filter given once or repeated, each value possibly a comma-separated list (Unleash takes one or many). */
const manyValues = v.optional(v.pipe(
  v.union([v.string(), v.array(v.string())], mustBe('a string')),
  v.transform((x) => (Array.isArray(x) ? x : [x]).flatMap((s) => s.split(',')).map((s) => s.trim()).filter((s) => s !== '')),
  v.maxLength(SCHEDULED_VALUES, `must list at most ${SCHEDULED_VALUES} values`),
), []);

/** `GET .../change-requests/scheduled?feature=&strategyId=&variantForFlag=`; nothing asked answers `[]`. */
export const ScheduledQuerySchema = looseObject({ feature: manyValues, strategyId: manyValues, variantForFlag: manyValues });

/** `IS:<user id>`. */
const isUser = v.optional(v.pipe(
  v.string(mustBe('IS:<user id>, given once')),
  v.regex(/^IS:\d{1,15}$/, 'must be IS:<user id>'),
  v.transform((s) => Number(s.slice(3))),
));

const pageNumber = (min: number, max: number, fallback: string) => v.optional(v.pipe(
  v.string(mustBe('a whole number, given once')),
  v.regex(/^\d{1,16}$/, 'must be a whole number'),
  v.transform(Number),
  v.minValue(min, `must be at least ${min}`),
  v.maxValue(max, `must be at most ${max}`),
), fallback);

/** `GET /api/admin/search/change-requests?createdBy=IS:<uid>&requestedApproverId=IS:<uid>&state=IS:open|IS:closed&offset=&limit=`. */
export const ChangeRequestSearchQuerySchema = looseObject({
  createdBy: isUser,
  requestedApproverId: isUser,
  state: v.optional(v.pipe(
    v.picklist(['IS:open', 'IS:closed'], 'must be IS:open or IS:closed'),
    v.transform((s) => (s === 'IS:open' ? 'open' as const : 'closed' as const)),
  )),
  offset: pageNumber(0, Number.MAX_SAFE_INTEGER, '0'),
  limit: pageNumber(1, 1000, '50'),
});

const person = v.object({ id: v.optional(v.number()), username: v.string(), imageUrl: v.nullable(v.string()) });

/** A change request as answered (for the OpenAPI document; Unleash's `changeRequestSchema`). */
export const ChangeRequestView = v.looseObject({
  id: v.number(), title: v.string(), project: v.string(), environment: v.string(), minApprovals: v.number(),
  state: v.string(), stateTimestamps: v.record(v.string(), v.string()), createdAt: v.string(), createdBy: person,
  features: v.array(v.looseObject({ name: v.string(), conflict: v.optional(v.string()), changes: v.array(v.looseObject({ id: v.number(), action: v.string() })) })),
  segments: v.array(v.looseObject({ id: v.number(), action: v.string(), name: v.string() })),
  approvals: v.array(v.object({ createdAt: v.string(), createdBy: person })),
  rejections: v.array(v.object({ createdAt: v.string(), createdBy: person })),
  comments: v.array(v.object({ id: v.number(), text: v.string(), createdAt: v.string(), createdBy: person })),
  schedule: v.optional(v.looseObject({ scheduledAt: v.string(), status: v.string() })),
});

/** A list of change requests. */
export const ChangeRequestListView = v.array(ChangeRequestView);

/** Users as reviewers (Unleash's `changeRequestReviewerSchema`). */
export const ReviewersView = v.object({ reviewers: v.array(v.object({ id: v.number(), email: v.nullable(v.string()), name: v.nullable(v.string()), username: v.nullable(v.string()), imageUrl: v.nullable(v.string()) })) });

/** One environment's setting. */
export const ConfigView = v.array(v.object({ environment: v.string(), type: v.string(), changeRequestEnabled: v.boolean(), requiredApprovals: v.nullable(v.number()) }));

/** The search's answer. */
export const SearchView = v.object({ changeRequests: v.array(v.looseObject({ id: v.number(), project: v.string(), environment: v.string(), state: v.string() })), total: v.number() });
