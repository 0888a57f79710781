/**
 * Bodies of the project and environment routes (docs/api-decisions.md "Projects,
 * environments, users, roles, tokens").
 */
import * as v from 'valibot';
import { SHAPE_LIMITS } from '../limits.js';
import {
  DescriptionSchema,
  EnvironmentNameSchema,
  NAME_MAX,
  ProjectIdSchema,
  RESERVED_NAMES,
  boundedString,
  integerIn,
  nonEmptyString,
  strictBoolean,
  strictObject,
} from './common.schema.js';

/** Unleash's project modes. */
export const ProjectModeSchema = v.picklist(['open', 'protected', 'private'], 'must be one of "open", "protected", "private"');

/** The stickiness a project's new strategies and variants default to: a context field name. */
const StickinessSchema = nonEmptyString(NAME_MAX);

/** A list of environment names: each once, at most `SHAPE_LIMITS.environmentNames`. */
const EnvironmentListSchema = v.pipe(
  v.array(EnvironmentNameSchema, 'must be an array of environment names'),
  v.minLength(1, 'must name at least one environment'),
  v.maxLength(SHAPE_LIMITS.environmentNames, `must list at most ${SHAPE_LIMITS.environmentNames} environments`),
  v.check((names) => new Set(names).size === names.length, 'must name each environment once'),
);

/**
 * Body of `POST /api/admin/projects`.
 *
 * @example v.parse(CreateProjectSchema, { id: 'web', name: 'Web' })
 * // { id: 'web', name: 'Web', description: '' }
 */
export const CreateProjectSchema = strictObject({
  id: ProjectIdSchema,
  name: nonEmptyString(100),
  description: DescriptionSchema,
  /** Absent: every enabled environment (Unleash's default). */
  environments: v.optional(EnvironmentListSchema),
  mode: v.optional(ProjectModeSchema, 'open'),
  defaultStickiness: v.optional(StickinessSchema, 'default'),
});

/**
 * Body of `PUT /api/admin/projects/:projectId`: `name` required; an absent `description`, `mode` or
 * `defaultStickiness` keeps its value (as Unleash's update); `id`, when sent, must be the path's.
 *
 * @example v.parse(UpdateProjectSchema, { name: 'Web', mode: 'protected' })
 */
export const UpdateProjectSchema = strictObject({
  id: v.optional(ProjectIdSchema),
  name: nonEmptyString(100),
  description: v.optional(v.pipe(v.nullable(boundedString(SHAPE_LIMITS.description)), v.transform((d) => d ?? ''))),
  mode: v.optional(ProjectModeSchema),
  defaultStickiness: v.optional(StickinessSchema),
});
export type UpdateProject = v.InferOutput<typeof UpdateProjectSchema>;
export type CreateProject = v.InferOutput<typeof CreateProjectSchema>;

/** Body of `POST /api/admin/environments`; `type` defaults to `development`. */
export const CreateEnvironmentSchema = strictObject({
  name: EnvironmentNameSchema,
  type: v.optional(nonEmptyString(100), 'development'),
  sortOrder: v.optional(integerIn()),
  /** Absent: enabled (Unleash's `createEnvironmentSchema` takes it too). */
  enabled: v.optional(strictBoolean()),
});

/** Body of `PUT /api/admin/environments/update/:name` (Unleash's `updateEnvironmentSchema`): what is absent is kept. */
export const UpdateEnvironmentSchema = strictObject({
  type: v.optional(nonEmptyString(100)),
  sortOrder: v.optional(integerIn()),
});

/** Body of `POST /api/admin/environments/validate`: a name to check. */
export const ValidateEnvironmentSchema = strictObject({ name: EnvironmentNameSchema });

/**
 * Body of `PUT /api/admin/environments/sort-order` (Unleash's `sortOrderSchema`): environment name to its new
 * sort order, at most `SHAPE_LIMITS.environmentNames` entries; read as a list.
 *
 * @example v.parse(EnvironmentSortOrderSchema, { production: 1, development: 2 })
 * // [{ name: 'production', sortOrder: 1 }, { name: 'development', sortOrder: 2 }]
 */
export const EnvironmentSortOrderSchema = v.pipe(
  // Checked on the raw object: a record schema skips keys such as `__proto__` instead of refusing them, and reads an array as one.
  v.custom<Record<string, unknown>>((input) => typeof input === 'object' && input !== null && !Array.isArray(input), 'must be an object of environment names to integer sort orders'),
  v.check((order) => Object.keys(order).every((name) => !RESERVED_NAMES.has(name)), (issue) => `must not name ${Object.keys(issue.input).filter((n) => RESERVED_NAMES.has(n)).map((n) => `"${n}"`).join(', ')}: reserved names are not environment names`),
  v.record(EnvironmentNameSchema, integerIn(), 'must be an object of environment names to integer sort orders'),
  v.check((order) => Object.keys(order).length <= SHAPE_LIMITS.environmentNames, `must list at most ${SHAPE_LIMITS.environmentNames} environments`),
  v.transform((order) => Object.entries(order).map(([name, sortOrder]) => ({ name, sortOrder }))),
);
export type CreateEnvironment = v.InferOutput<typeof CreateEnvironmentSchema>;

/** Body of `POST /api/admin/projects/:projectId/environments`: the environment to connect. */
export const ProjectEnvironmentSchema = strictObject({
  environment: EnvironmentNameSchema,
});
export type ProjectEnvironment = v.InferOutput<typeof ProjectEnvironmentSchema>;
