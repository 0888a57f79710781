/**
 * The body of `POST /api/admin/segments` and `PUT /api/admin/segments/:id` (docs/client-contract.md "Segments", Unleash
 * 6.10's `upsertSegmentSchema`): `name` and `constraints` required, constraints validated exactly as a
 * strategy's. How many values a segment holds in all is a limit decided in the service mailbox.
 */
import * as v from 'valibot';
import { SHAPE_LIMITS } from '../limits.js';
import { ConstraintSchema } from './constraint.schema.js';
import { ProjectIdSchema, boundedString, identifier, strictObject } from './common.schema.js';
import { mustBe } from './messages.js';

/**
 * Fields of a segment as GET answers it (and Unleash's `usedIn*` counts) that a client may echo back on
 * `PUT`: accepted with any value and dropped, since the server owns them.
 */
const READ_ONLY_FIELDS = ['id', 'createdAt', 'createdBy', 'usedInFeatures', 'usedInProjects'] as const;

const readOnlyEntries = Object.fromEntries(
  READ_ONLY_FIELDS.map((key) => [key, v.optional(v.unknown())]),
) as Record<(typeof READ_ONLY_FIELDS)[number], v.OptionalSchema<v.UnknownSchema, undefined>>;

/**
 * A segment as created or replaced. `description` absent means null; `project` absent or null makes a
 * global segment (a PUT without `project` makes it global, as in Unleash).
 *
 * @example v.parse(UpsertSegmentSchema, { name: 'beta', constraints: [{ contextName: 'plan', operator: 'IN', values: ['beta'] }] })
 * // { name: 'beta', description: null, project: null, constraints: [{ ..., caseInsensitive: false, inverted: false }] }
 */
export const UpsertSegmentSchema = v.pipe(
  strictObject({
    name: identifier(SHAPE_LIMITS.name),
    description: v.optional(v.nullable(boundedString(SHAPE_LIMITS.description)), null),
    project: v.optional(v.nullable(ProjectIdSchema), null),
    constraints: v.pipe(
      v.array(ConstraintSchema, mustBe('an array of constraints')),
      v.maxLength(SHAPE_LIMITS.constraints, `must hold at most ${SHAPE_LIMITS.constraints} constraints`),
    ),
    ...readOnlyEntries,
  }),
  v.transform(({ name, description, project, constraints }) => ({ name, description, project, constraints })),
);
export type UpsertSegment = v.InferOutput<typeof UpsertSegmentSchema>;
