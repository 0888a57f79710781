/**
 * Path parameters of the admin routes. Hono hands them over decoded; a value
 * that breaks the name rules is a 400 `ValidationError` like a bad body.
 * Extra parameters are dropped, so one schema serves nested routes.
 */
import * as v from 'valibot';
import {
  EnvironmentNameSchema,
  EnvironmentOrAllSchema,
  FlagNameSchema,
  IntIdParamSchema,
  ProjectIdSchema,
  StrategyIdSchema,
  looseObject,
} from './common.schema.js';

/** `/api/admin/projects/:projectId` */
export const ProjectParamsSchema = looseObject({ projectId: ProjectIdSchema });

/** `/api/admin/projects/:projectId/features/:featureName` */
export const FeatureParamsSchema = looseObject({
  projectId: ProjectIdSchema,
  featureName: FlagNameSchema,
});
export type FeatureParams = v.InferOutput<typeof FeatureParamsSchema>;

/** `.../features/:featureName/environments/:environment` */
export const FeatureEnvironmentParamsSchema = looseObject({
  projectId: ProjectIdSchema,
  featureName: FlagNameSchema,
  environment: EnvironmentNameSchema,
});
export type FeatureEnvironmentParams = v.InferOutput<typeof FeatureEnvironmentParamsSchema>;

/** `.../environments/:environment/strategies/:strategyId` */
export const StrategyParamsSchema = looseObject({
  projectId: ProjectIdSchema,
  featureName: FlagNameSchema,
  environment: EnvironmentNameSchema,
  strategyId: StrategyIdSchema,
});
export type StrategyParams = v.InferOutput<typeof StrategyParamsSchema>;

/** `/api/admin/projects/:projectId/environments/:environment` (connect / disconnect). */
export const ProjectEnvironmentParamsSchema = looseObject({
  projectId: ProjectIdSchema,
  environment: EnvironmentNameSchema,
});

/** `.../environments/:environment/default-strategy`, where `*` means every environment. */
export const DefaultStrategyParamsSchema = looseObject({
  projectId: ProjectIdSchema,
  environment: EnvironmentOrAllSchema,
});

/** `/api/admin/environments/:name` and `/api/admin/environments/update/:name`. */
export const EnvironmentParamsSchema = looseObject({ name: EnvironmentNameSchema });

/** `/api/admin/projects/:projectId/users/:userId/roles/:roleId`; ids become numbers. */
export const ProjectUserRoleParamsSchema = looseObject({
  projectId: ProjectIdSchema,
  userId: IntIdParamSchema,
  roleId: IntIdParamSchema,
});
export type ProjectUserRoleParams = v.InferOutput<typeof ProjectUserRoleParamsSchema>;

/** `/api/admin/user-admin/:userId[/tokens]` */
export const UserParamsSchema = looseObject({ userId: IntIdParamSchema });

/** `/api/admin/segments/:id`: a segment id, a positive integer. */
export const SegmentParamsSchema = looseObject({ id: IntIdParamSchema });

/**
 * The query of `/on` and of the bulk `/on`: `shouldActivateDisabledStrategies=true` enables the environment's
 * disabled strategies with the flag (Unleash 6.10); absent or `false`, they stay disabled.
 *
 * @example v.parse(EnableQuerySchema, { shouldActivateDisabledStrategies: 'true' })
 */
export const EnableQuerySchema = looseObject({
  shouldActivateDisabledStrategies: v.optional(v.picklist(['true', 'false'], 'must be true or false, given once')),
});
