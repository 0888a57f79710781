/**
 * Bodies of the project and environment routes (API-DECISIONS "Projects,
 * environments, users, roles, tokens").
 */
import * as v from 'valibot';
import {
  DescriptionSchema,
  EnvironmentNameSchema,
  ProjectIdSchema,
  integerIn,
  nonEmptyString,
  strictObject,
} from './common.schema.js';

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
});
export type CreateProject = v.InferOutput<typeof CreateProjectSchema>;

/** Body of `POST /api/admin/environments`; `type` defaults to `development`. */
export const CreateEnvironmentSchema = strictObject({
  name: EnvironmentNameSchema,
  type: v.optional(nonEmptyString(100), 'development'),
  sortOrder: v.optional(integerIn()),
});
export type CreateEnvironment = v.InferOutput<typeof CreateEnvironmentSchema>;

/** Body of `POST /api/admin/projects/:projectId/environments`: the environment to connect. */
export const ProjectEnvironmentSchema = strictObject({
  environment: EnvironmentNameSchema,
});
export type ProjectEnvironment = v.InferOutput<typeof ProjectEnvironmentSchema>;
