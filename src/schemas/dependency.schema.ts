/** Bodies and paths of the flag dependency routes (docs/api-decisions.md "Dependencies"). */
import * as v from 'valibot';
import { SHAPE_LIMITS } from '../limits.js';
import { FlagNameSchema, ProjectIdSchema, looseObject, strictBoolean, strictObject } from './common.schema.js';
import { mustBe } from './messages.js';

/**
 * Body of `POST .../features/:featureName/dependencies` (Unleash's `createDependentFeatureSchema`).
 * `enabled` defaults to true; `variants` only count when it is.
 */
export const CreateDependencySchema = strictObject({
  feature: FlagNameSchema,
  enabled: v.optional(strictBoolean(), true),
  variants: v.optional(v.pipe(
    v.array(FlagNameSchema, mustBe('an array of variant names')),
    v.maxLength(SHAPE_LIMITS.dependencyVariants, `must list at most ${SHAPE_LIMITS.dependencyVariants} variants`),
  )),
});

/** `.../features/:featureName/dependencies/:parent` */
export const DependencyParamsSchema = looseObject({ projectId: ProjectIdSchema, featureName: FlagNameSchema, parent: FlagNameSchema });
