/**
 * Feature lifecycle (docs/api-decisions.md "Feature lifecycle"; Unleash 6.10's `feature-lifecycle` routes):
 * a flag's stages, completing and reopening it (`UPDATE_FEATURE`, as Unleash), and the count per stage.
 */
import { CompleteFlagSchema, FlagLifecycleView, LifecycleCountView } from '../../schemas/lifecycle.schema.js';
import { FeatureParamsSchema } from '../../schemas/params.schema.js';
import { flagLifecycle, lifecycleCount } from '../../queries/lifecycle.query.js';
import { completeFlag, uncompleteFlag } from '../../use-cases/lifecycle.use-cases.js';
import { defineRoute, inputOf, type RouteSpec } from '../route.js';

const LIFECYCLE = '/api/admin/projects/:projectId/features/:featureName/lifecycle';

export const lifecycleRoutes: RouteSpec[] = [
  defineRoute({
    method: 'get', path: LIFECYCLE, tag: 'Lifecycle', permission: 'READ',
    summary: 'The lifecycle stages the flag entered (`initial`, `pre-live`, `live`, `completed`, `archived`), in order', params: FeatureParamsSchema,
    success: { status: 200, description: '`[{stage, status?, enteredStageAt}]`', schema: FlagLifecycleView }, errors: ['NotFoundError'],
    handle: ({ params, project }) => flagLifecycle(project().state, params.featureName),
    view: (stages) => stages,
  }),
  defineRoute({
    method: 'post', path: `${LIFECYCLE}/complete`, tag: 'Lifecycle', permission: 'UPDATE_FEATURE', conditional: true,
    summary: 'Mark the flag completed: `{status: "kept" | "discarded", statusValue?}` (what was kept, a variant\'s name)', params: FeatureParamsSchema, body: CompleteFlagSchema,
    success: { status: 200, description: 'No body' }, errors: ['NotFoundError', 'ArchivedFeatureError', 'PreconditionFailed'],
    handle: ({ params, body, ifMatch, principal, registry }) => completeFlag(registry, inputOf(params, body, { ifMatch }), principal),
  }),
  defineRoute({
    method: 'post', path: `${LIFECYCLE}/uncomplete`, tag: 'Lifecycle', permission: 'UPDATE_FEATURE', conditional: true,
    summary: 'Undo the completion: the flag is back in the stage its usage reached', params: FeatureParamsSchema,
    success: { status: 200, description: 'No body' }, errors: ['NotFoundError', 'ArchivedFeatureError', 'PreconditionFailed'],
    handle: ({ params, ifMatch, principal, registry }) => uncompleteFlag(registry, inputOf(params, { ifMatch }), principal),
  }),
  defineRoute({
    method: 'get', path: '/api/admin/lifecycle/count', tag: 'Lifecycle', permission: 'READ',
    summary: 'How many flags (archived ones too) are in each lifecycle stage now',
    success: { status: 200, description: '`{initial, preLive, live, completed, archived}`', schema: LifecycleCountView },
    handle: ({ registry }) => lifecycleCount(registry),
    view: (count) => count,
  }),
];
