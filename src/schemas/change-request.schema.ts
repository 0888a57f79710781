/**
 * Bodies of the change-request routes (Unleash Enterprise's, docs/api-decisions.md "Change requests"): the
 * per-environment configuration, a change (`ChangeRequestCreate`: `{feature, action, payload}`), a state
 * change, a title, a comment, the requested reviewers. Only the core change types are offered
 * ({@link CHANGE_ACTIONS}); any other `action` is a 400 naming them.
 */
import * as v from 'valibot';
import { FlagNameSchema, StrategyIdSchema, boundedString, integerIn, looseObject, nonEmptyString, strictBoolean, strictObject } from './common.schema.js';
import { CreateDependencySchema } from './dependency.schema.js';
import { formatIssue } from './issues.js';
import { mustBe, oneOf } from './messages.js';
import { UpsertSegmentSchema } from './segment.schema.js';
import { StrategySortOrderSchema } from './strategy-order.schema.js';
import { StrategySchema, rolloutCheck, strategyEntries } from './strategy.schema.js';
import { VariantsSchema } from './variant.schema.js';

/** The change types flagpole offers: Unleash's core flag and segment changes (release plans and safeguards are not offered). */
export const CHANGE_ACTIONS = [
  'updateEnabled', 'addStrategy', 'updateStrategy', 'deleteStrategy', 'reorderStrategy', 'patchVariant',
  'archiveFeature', 'addDependency', 'deleteDependency', 'updateSegment', 'deleteSegment',
] as const;
export type ChangeAction = (typeof CHANGE_ACTIONS)[number];

/** The states of a change request, as Unleash names them. */
export const CHANGE_REQUEST_STATES = ['Draft', 'In review', 'Approved', 'Scheduled', 'Applied', 'Cancelled', 'Rejected'] as const;

/** Most changes one request body carries (the request as a whole is bounded by `LIMIT_CHANGES_PER_REQUEST`). */
export const CHANGES_PER_BODY = 100;

/** Characters of a title and of a comment (Unleash's UI caps comments at 1000). */
export const TITLE_MAX = 1000;
export const COMMENT_MAX = 1000;

/** Reviewers one request may name (Unleash: 10). */
export const REVIEWERS_MAX = 10;

/** Approvals an environment may require (Unleash: 1 to 10; other numbers are clamped). */
export const APPROVALS_MIN = 1;
export const APPROVALS_MAX = 10;

/** `updateStrategy`: a strategy body whose `name` may be left out (the strategy keeps its own), with the strategy's `id`. */
const UpdateStrategyPayloadSchema = v.pipe(
  strictObject({ ...strategyEntries, name: v.optional(strategyEntries.name), id: StrategyIdSchema }),
  rolloutCheck(),
  v.transform(({ parameters, ...rest }) => {
    const body: typeof rest & { parameters?: Record<string, string> } = rest;
    if (parameters) body.parameters = parameters;
    return body;
  }),
);

/** `updateSegment`: the segment body of `PUT /api/admin/segments/:id`, with the segment's `id`. */
const UpdateSegmentPayloadSchema = v.pipe(
  v.intersect([looseObject({ id: integerIn(1) }), UpsertSegmentSchema]),
  v.transform(({ id, name, description, project, constraints }) => ({ id, name, description, project, constraints })),
);

/** A segment change names no flag: `feature` is absent or null (Unleash's UI sends null). */
const NoFeature = v.optional(v.nullable(v.string()));

/** One change of each type (Unleash's `changeRequestCreateSchema`), by `action`. */
const CHANGE_OPTIONS = [
  v.strictObject({ action: v.literal('updateEnabled'), feature: FlagNameSchema, payload: strictObject({ enabled: strictBoolean(), shouldActivateDisabledStrategies: v.optional(strictBoolean()) }) }),
  v.strictObject({ action: v.literal('addStrategy'), feature: FlagNameSchema, payload: StrategySchema }),
  v.strictObject({ action: v.literal('updateStrategy'), feature: FlagNameSchema, payload: UpdateStrategyPayloadSchema }),
  // The read side of Unleash adds name, title and disabled: a client echoing them back is not refused.
  v.strictObject({ action: v.literal('deleteStrategy'), feature: FlagNameSchema, payload: v.pipe(looseObject({ id: StrategyIdSchema }), v.transform(({ id }) => ({ id }))) }),
  v.strictObject({ action: v.literal('reorderStrategy'), feature: FlagNameSchema, payload: StrategySortOrderSchema }),
  v.strictObject({ action: v.literal('patchVariant'), feature: FlagNameSchema, payload: strictObject({ variants: VariantsSchema }) }),
  v.strictObject({ action: v.literal('archiveFeature'), feature: FlagNameSchema, payload: v.optional(v.pipe(v.unknown(), v.transform(() => undefined))) }),
  v.strictObject({ action: v.literal('addDependency'), feature: FlagNameSchema, payload: CreateDependencySchema }),
  // No payload: every dependency of the flag; `{feature}`: the one on that parent.
  v.strictObject({ action: v.literal('deleteDependency'), feature: FlagNameSchema, payload: v.optional(v.nullable(strictObject({ feature: v.optional(FlagNameSchema) }))) }),
  v.strictObject({ action: v.literal('updateSegment'), feature: NoFeature, payload: UpdateSegmentPayloadSchema }),
  v.strictObject({ action: v.literal('deleteSegment'), feature: NoFeature, payload: v.pipe(looseObject({ id: integerIn(1) }), v.transform(({ id }) => ({ id }))) }),
] as const;

/**
 * One change as a client sends it. An `action` flagpole does not offer is refused naming the ones it does.
 *
 * @example v.parse(ChangeSchema, { feature: 'checkout', action: 'updateEnabled', payload: { enabled: true } })
 */
export const ChangeSchema = v.pipe(
  v.custom<Record<string, unknown>>((x) => typeof x === 'object' && x !== null && !Array.isArray(x), mustBe('an object {feature, action, payload}')),
  v.rawCheck<Record<string, unknown>>(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const action = dataset.value['action'];
    if ((CHANGE_ACTIONS as readonly unknown[]).includes(action)) return;
    addIssue({
      message: `flagpole offers the change types ${CHANGE_ACTIONS.join(', ')}; got ${action === undefined ? 'none' : JSON.stringify(action).slice(0, 100)}`,
      path: [{ type: 'object', origin: 'value', input: dataset.value, key: 'action', value: action }],
    });
  }),
  v.variant('action', CHANGE_OPTIONS, oneOf(CHANGE_ACTIONS)),
);
export type ChangeBody = v.InferOutput<typeof ChangeSchema>;

/** The body of `POST .../environments/:environment/change-requests`: one change, or a list of them. */
export const ChangesBodySchema = v.union(
  [
    ChangeSchema,
    v.pipe(
      v.array(ChangeSchema, mustBe('a change or an array of changes')),
      v.minLength(1, 'must hold at least one change'),
      v.maxLength(CHANGES_PER_BODY, `must hold at most ${CHANGES_PER_BODY} changes`),
    ),
  ],
  // The union's own issue has no path: say the inner one of the shape sent (one change, or a list), whole,
  // with the path of the change it is about.
  (issue) => {
    const list = Array.isArray(issue.input);
    const inner = issue.issues?.find((i) => (list ? (i.path?.length ?? 0) > 0 || i.type !== 'custom' : !(i.type === 'array' && !i.path?.length)));
    return inner ? formatIssue(inner) : `must be a change or an array of changes, got ${issue.received}`;
  },
);

/**
 * `PUT .../environments/:environment/change-requests/config`. Unleash's key is `changeRequestsEnabled`; the
 * singular `changeRequestEnabled` its GET answers is taken too, so a client may send back what it read.
 * `requiredApprovals` is clamped to 1..10, as Unleash does.
 */
export const ConfigBodySchema = v.pipe(
  looseObject({
    changeRequestsEnabled: v.optional(strictBoolean()),
    changeRequestEnabled: v.optional(strictBoolean()),
    requiredApprovals: v.optional(v.nullable(integerIn(0))),
  }),
  v.check((b) => b.changeRequestsEnabled !== undefined || b.changeRequestEnabled !== undefined, '"changeRequestsEnabled": is required'),
  v.check((b) => b.changeRequestsEnabled === undefined || b.changeRequestEnabled === undefined || b.changeRequestsEnabled === b.changeRequestEnabled,
    '"changeRequestsEnabled" and "changeRequestEnabled" disagree; send one of them'),
  v.transform((b) => ({
    enabled: (b.changeRequestsEnabled ?? b.changeRequestEnabled)!,
    requiredApprovals: b.requiredApprovals === undefined || b.requiredApprovals === null ? undefined : Math.min(APPROVALS_MAX, Math.max(APPROVALS_MIN, b.requiredApprovals)),
  })),
);

/** The states a `PUT .../state` may ask for (`Applied` applies it; `Draft` is never a target). */
export const TARGET_STATES = ['In review', 'Approved', 'Rejected', 'Cancelled', 'Scheduled', 'Applied'] as const;
export type TargetState = (typeof TARGET_STATES)[number];

/** `PUT .../change-requests/:id/state`: `{state, comment?}`, or `{state: "Scheduled", scheduledAt, comment?}`. */
export const StateBodySchema = v.pipe(
  looseObject({
    state: v.picklist(TARGET_STATES, oneOf(TARGET_STATES)),
    comment: v.optional(v.nullable(boundedString(COMMENT_MAX))),
    scheduledAt: v.optional(v.pipe(
      v.string(mustBe('an ISO 8601 date-time')),
      v.check((s) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/.test(s) && !Number.isNaN(Date.parse(s)), 'must be an ISO 8601 date-time with an offset (2026-05-05T06:00:00Z)'),
      v.transform((s) => new Date(s).toISOString()),
    )),
  }),
  v.check((b) => b.state !== 'Scheduled' || b.scheduledAt !== undefined, '"scheduledAt": is required to schedule a change request'),
  v.transform((b) => ({ state: b.state, comment: b.comment?.trim() || undefined, scheduledAt: b.state === 'Scheduled' ? b.scheduledAt : undefined })),
);

/** `PUT .../change-requests/:id/title`. */
export const TitleBodySchema = strictObject({ title: nonEmptyString(TITLE_MAX) });

/** `POST .../change-requests/:id/comments`: the text, trimmed, 1 to 1000 characters. */
export const CommentBodySchema = v.pipe(
  looseObject({ text: v.pipe(v.string(mustBe('a string')), v.transform((s) => s.trim()), v.minLength(1, 'must not be empty'), v.maxLength(COMMENT_MAX, `must be at most ${COMMENT_MAX} characters`)) }),
);

/** `PUT .../change-requests/:id/approvers`: user ids, replacing the list. */
export const ReviewersBodySchema = looseObject({
  reviewers: v.pipe(
    v.array(integerIn(1), mustBe('an array of user ids')),
    v.maxLength(REVIEWERS_MAX, `must name at most ${REVIEWERS_MAX} reviewers`),
    v.transform((ids) => [...new Set(ids)]),
  ),
});

