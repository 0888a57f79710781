import { FeatureParamsSchema } from '../../schemas/params.schema.js';
import { JsonPatchSchema } from '../../schemas/patch.schema.js';
import { VariantsSchema } from '../../schemas/variant.schema.js';
import type { Variant } from '../../domain/types.js';
import { etagOf, parseIfMatch } from '../body.js';
import { apiError } from '../errors.js';
import { defineRoute, type Call, type RouteSpec } from '../route.js';
import { variantsResponse } from '../views.js';

const VARIANTS = '/api/admin/projects/:projectId/features/:featureName/variants';
const ERRORS = ['NotFoundError', 'ArchivedFeatureError', 'PreconditionFailed'];

function answer(call: Call<{ featureName: string }, unknown>, variants: Variant[]): Response {
  const flag = call.project().state.flags.get(call.params.featureName);
  if (flag) call.c.header('ETag', etagOf(flag.version));
  return call.c.json(variantsResponse(variants));
}

/** Seed 4.14 and 4.15: flag-level variants, for every environment at once. */
export const variantRoutes: RouteSpec[] = [
  defineRoute({
    method: 'get', path: VARIANTS, tag: 'Variants', permission: 'READ',
    summary: 'Get the variants of a flag', params: FeatureParamsSchema,
    success: { status: 200, description: '`{version: "1", variants}`' }, errors: ['NotFoundError'],
    handle: (call) => {
      const flag = call.project().state.flags.get(call.params.featureName);
      if (!flag) throw apiError('NotFoundError', `Could not find feature flag "${call.params.featureName}" in project "${call.params.projectId}"`);
      return answer(call, flag.variants);
    },
  }),
  defineRoute({
    method: 'put', path: VARIANTS, tag: 'Variants', permission: 'UPDATE_FEATURE_VARIANTS',
    summary: 'Replace the variants of a flag in all environments', params: FeatureParamsSchema, body: VariantsSchema,
    success: { status: 200, description: '`{version: "1", variants}` with stored weights' }, errors: ERRORS,
    handle: async (call) => {
      const variants = await call.run<Variant[]>({
        type: 'variants.set', feature: call.params.featureName, ifMatch: parseIfMatch(call.c.req.header('if-match')), variants: call.body as Variant[],
      });
      return answer(call, variants);
    },
  }),
  defineRoute({
    method: 'patch', path: VARIANTS, tag: 'Variants', permission: 'UPDATE_FEATURE_VARIANTS',
    summary: 'Apply RFC 6902 operations to the variants of a flag', params: FeatureParamsSchema, body: JsonPatchSchema,
    success: { status: 200, description: '`{version: "1", variants}` with stored weights' }, errors: [...ERRORS, 'PatchTestFailed'],
    handle: async (call) => {
      const variants = await call.run<Variant[]>({
        type: 'variants.patch', feature: call.params.featureName, ifMatch: parseIfMatch(call.c.req.header('if-match')), operations: call.body,
      });
      return answer(call, variants);
    },
  }),
];
