/** Flag-level variants, for every environment at once (docs/admin-contract.md §4.14, §4.15). */
import { FeatureParamsSchema } from '../../schemas/params.schema.js';
import { JsonPatchSchema } from '../../schemas/patch.schema.js';
import { VariantsSchema } from '../../schemas/variant.schema.js';
import { flagById } from '../../queries/flags.query.js';
import { patchVariants, setVariants } from '../../use-cases/variants.use-cases.js';
import type { ErrorKind } from '../errors.js';
import { defineRoute, inputOf, type RouteSpec } from '../route.js';
import { VariantsView, variantsResponse } from '../answers/views.js';

const VARIANTS = '/api/admin/projects/:projectId/features/:featureName/variants';
const ERRORS: ErrorKind[] = ['NotFoundError', 'ArchivedFeatureError', 'PreconditionFailed'];

export const variantRoutes: RouteSpec[] = [
  defineRoute({
    method: 'get', path: VARIANTS, tag: 'Variants', permission: 'READ',
    summary: 'Get the variants of a flag', params: FeatureParamsSchema,
    success: { status: 200, description: '`{version: "1", variants}`', schema: VariantsView }, errors: ['NotFoundError'],
    handle: ({ params, project }) => flagById(project().state, params.featureName),
    view: (flag) => variantsResponse(flag.variants),
  }),
  defineRoute({
    method: 'put', path: VARIANTS, tag: 'Variants', permission: 'UPDATE_FEATURE_VARIANTS', conditional: true,
    summary: 'Replace the variants of a flag in all environments', params: FeatureParamsSchema, body: VariantsSchema,
    success: { status: 200, description: '`{version: "1", variants}` with stored weights', schema: VariantsView }, errors: ERRORS,
    handle: ({ params, body, ifMatch, principal, registry }) => setVariants(registry, inputOf(params, { ifMatch, variants: body }), principal),
    view: variantsResponse,
  }),
  defineRoute({
    method: 'patch', path: VARIANTS, tag: 'Variants', permission: 'UPDATE_FEATURE_VARIANTS', conditional: true,
    summary: 'Apply RFC 6902 operations to the variants of a flag', params: FeatureParamsSchema, body: JsonPatchSchema,
    success: { status: 200, description: '`{version: "1", variants}` with stored weights', schema: VariantsView }, errors: [...ERRORS, 'PatchTestFailed'],
    handle: ({ params, body, ifMatch, principal, registry }) => patchVariants(registry, inputOf(params, { ifMatch, operations: body }), principal),
    view: variantsResponse,
  }),
];
