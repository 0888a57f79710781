/** @jsxImportSource hono/jsx */
/**
 * A flag's page (`/projects/:projectId/features/:featureName`) and its forms: metadata, tags, the switch of each
 * environment, archive, revive, delete and clone. Each form post validates with the API's schema, calls the
 * use case the API's route calls, and answers a 303 back to the page, or the page again with the API's message
 * next to the field it names. The strategy forms are in `flag-strategy.pages.tsx`.
 */
import * as v from 'valibot';
import { CloneFeatureSchema, UpdateFeatureSchema } from '../../../schemas/feature.schema.js';
import { formatIssues } from '../../../schemas/issues.js';
import { FeatureEnvironmentParamsSchema, FeatureParamsSchema } from '../../../schemas/params.schema.js';
import { TagSchema } from '../../../schemas/tag.schema.js';
import { CreateDependencySchema } from '../../../schemas/dependency.schema.js';
import { VariantsSchema } from '../../../schemas/variant.schema.js';
import { addDependency, removeDependency } from '../../../use-cases/dependencies.use-cases.js';
import { setVariants } from '../../../use-cases/variants.use-cases.js';
import { variantDraftsFromForm, variantFieldOf, variantsBodyOf } from '../variant-form-fields.js';
import { archiveFlag, cloneFlag, deleteArchivedFlags, reviveFlags, updateFlag } from '../../../use-cases/flags.use-cases.js';
import { changeTags } from '../../../use-cases/tags.use-cases.js';
import { disableFlag, enableFlag } from '../../../use-cases/toggles.use-cases.js';
import { defineRoute, type RouteSpec } from '../../route.js';
import { idOf } from '../views/flag/form-parts.js';
import { backToFlag, flagPage, formIfMatch, namedField, refusedForm } from './flag-page-render.js';

const FLAG = '/projects/:projectId/features/:featureName';
const PAGE = { status: 200, description: 'An HTML page' };
const BACK = { status: 303, description: 'Back to the flag page' };
const page = { tag: 'Console', authentication: 'session', page: true } as const;

const invalid = (issues: v.BaseIssue<unknown>[]) => ({ kind: 'ValidationError' as const, message: formatIssues(issues).message });

export const flagPages: RouteSpec[] = [
  defineRoute({
    ...page, method: 'get', path: FLAG, permission: 'READ', params: FeatureParamsSchema, success: PAGE,
    summary: 'A flag\'s page: details, tags, environments with their strategies, variants, usage',
    handle: ({ c, deps, params }) => flagPage(c, deps, params),
  }),
  defineRoute({
    ...page, method: 'post', path: `${FLAG}/metadata`, permission: 'UPDATE_FEATURE', params: FeatureParamsSchema, success: BACK,
    summary: 'Save a flag\'s description, type, stale mark and impression data',
    handle: async ({ c, deps, params, principal, registry }) => {
      const form = c.get('form') ?? {};
      const body = { name: params.featureName, description: form['description'] ?? '', type: form['type'], stale: form['stale'] === 'on', impressionData: form['impressionData'] === 'on' };
      const parsed = v.safeParse(UpdateFeatureSchema, body);
      const fields = ['description', 'type'];
      if (!parsed.success) { const error = invalid(parsed.issues); return refusedForm(c, deps, params, { form: 'metadata', field: namedField(error.message, fields), error }); }
      const { description, type, stale, impressionData } = parsed.output;
      const saved = await updateFlag(registry, { projectId: params.projectId, featureName: params.featureName, description, type, stale, impressionData, ifMatch: formIfMatch(c) }, principal);
      if (!saved.ok) return refusedForm(c, deps, params, { form: 'metadata', field: namedField(saved.error.message, fields), error: saved.error });
      return backToFlag(c, params, 'saved', 'details-title');
    },
  }),
  defineRoute({
    ...page, method: 'post', path: `${FLAG}/tags`, permission: 'UPDATE_FEATURE', params: FeatureParamsSchema, success: BACK,
    summary: 'Add a tag (type:value) to a flag',
    handle: async ({ c, deps, params, principal, registry }) => {
      const form = c.get('form') ?? {};
      const parsed = v.safeParse(TagSchema, { type: form['type'], value: (form['value'] ?? '').trim() });
      if (!parsed.success) { const error = invalid(parsed.issues); return refusedForm(c, deps, params, { form: 'tags', field: namedField(error.message, ['type', 'value']), error }); }
      const changed = await changeTags(registry, { projectId: params.projectId, features: [params.featureName], added: [parsed.output], removed: [] }, principal);
      if (!changed.ok) return refusedForm(c, deps, params, { form: 'tags', field: namedField(changed.error.message, ['type', 'value']), error: changed.error });
      return backToFlag(c, params, 'tagged', 'tags-title');
    },
  }),
  defineRoute({
    ...page, method: 'post', path: `${FLAG}/tags/remove`, permission: 'UPDATE_FEATURE', params: FeatureParamsSchema, success: BACK,
    summary: 'Remove a tag from a flag',
    handle: async ({ c, deps, params, principal, registry }) => {
      const form = c.get('form') ?? {};
      const parsed = v.safeParse(TagSchema, { type: form['type'], value: form['value'] });
      if (!parsed.success) return refusedForm(c, deps, params, { form: 'tags', field: null, error: invalid(parsed.issues) });
      const changed = await changeTags(registry, { projectId: params.projectId, features: [params.featureName], added: [], removed: [parsed.output] }, principal);
      if (!changed.ok) return refusedForm(c, deps, params, { form: 'tags', field: null, error: changed.error });
      return backToFlag(c, params, 'tagged', 'tags-title');
    },
  }),
  defineRoute({
    ...page, method: 'post', path: `${FLAG}/environments/:environment/toggle`, permission: 'UPDATE_FEATURE_ENVIRONMENT', params: FeatureEnvironmentParamsSchema, success: BACK,
    summary: 'Switch a flag on (`enabled=true`, adding the default strategy when it has no enabled one) or off in an environment',
    handle: async ({ c, deps, params, principal, registry }) => {
      const on = c.get('form')?.['enabled'] === 'true';
      const ref = { ...params, ifMatch: formIfMatch(c) };
      const switched = on ? await enableFlag(registry, ref, principal) : await disableFlag(registry, ref, principal);
      if (!switched.ok) return refusedForm(c, deps, params, { form: `toggle:${params.environment}`, field: null, error: switched.error });
      return backToFlag(c, params, 'toggled', idOf('env', params.environment));
    },
  }),
  defineRoute({
    ...page, method: 'post', path: `${FLAG}/archive`, permission: 'DELETE_FEATURE', params: FeatureParamsSchema, success: BACK,
    summary: 'Archive a flag',
    handle: async ({ c, deps, params, principal, registry }) => {
      const archived = await archiveFlag(registry, { ...params, ifMatch: formIfMatch(c) }, principal);
      if (!archived.ok) return refusedForm(c, deps, params, { form: 'lifecycle', field: null, error: archived.error });
      return backToFlag(c, params, 'archived');
    },
  }),
  defineRoute({
    ...page, method: 'post', path: `${FLAG}/revive`, permission: 'DELETE_FEATURE', params: FeatureParamsSchema, success: BACK,
    summary: 'Revive an archived flag (off in every environment)',
    handle: async ({ c, deps, params, principal, registry }) => {
      const revived = await reviveFlags(registry, { projectId: params.projectId, features: [params.featureName] }, principal);
      if (!revived.ok) return refusedForm(c, deps, params, { form: 'lifecycle', field: null, error: revived.error });
      return backToFlag(c, params, 'revived');
    },
  }),
  defineRoute({
    ...page, method: 'post', path: `${FLAG}/delete`, permission: 'DELETE_FEATURE', params: FeatureParamsSchema,
    success: { status: 303, description: 'To the project page' },
    summary: 'Delete an archived flag for good',
    handle: async ({ c, deps, params, principal, registry }) => {
      const deleted = await deleteArchivedFlags(registry, { projectId: params.projectId, features: [params.featureName] }, principal);
      if (!deleted.ok) return refusedForm(c, deps, params, { form: 'lifecycle', field: null, error: deleted.error });
      return c.redirect(`/projects/${encodeURIComponent(params.projectId)}`, 303);
    },
  }),
  defineRoute({
    ...page, method: 'post', path: `${FLAG}/clone`, permission: 'CREATE_FEATURE', params: FeatureParamsSchema,
    success: { status: 303, description: 'To the new flag\'s page' },
    summary: 'Clone a flag under a new name (its strategies and variants, off everywhere)',
    handle: async ({ c, deps, params, principal, registry }) => {
      const parsed = v.safeParse(CloneFeatureSchema, { name: (c.get('form')?.['name'] ?? '').trim() });
      if (!parsed.success) return refusedForm(c, deps, params, { form: 'clone', field: 'name', error: invalid(parsed.issues) });
      const cloned = await cloneFlag(registry, { ...params, ...parsed.output, ifMatch: formIfMatch(c) }, principal);
      if (!cloned.ok) return refusedForm(c, deps, params, { form: 'clone', field: namedField(cloned.error.message, ['name']) ?? (cloned.error.kind === 'NameExistsError' ? 'name' : null), error: cloned.error });
      return backToFlag(c, { projectId: params.projectId, featureName: parsed.output.name }, 'cloned');
    },
  }),
  defineRoute({
    ...page, method: 'post', path: `${FLAG}/variants`, permission: 'UPDATE_FEATURE_VARIANTS', params: FeatureParamsSchema, success: BACK,
    summary: 'Replace a flag\'s variants (the rows of the variants form, with their overrides)',
    handle: async ({ c, deps, params, principal, registry }) => {
      const rows = variantDraftsFromForm(c.get('form') ?? {});
      const parsed = v.safeParse(VariantsSchema, variantsBodyOf(rows));
      if (!parsed.success) { const error = invalid(parsed.issues); return refusedForm(c, deps, params, { form: 'variants', field: variantFieldOf(error.message), error, variants: rows }); }
      const saved = await setVariants(registry, { ...params, variants: parsed.output, ifMatch: formIfMatch(c) }, principal);
      if (!saved.ok) return refusedForm(c, deps, params, { form: 'variants', field: variantFieldOf(saved.error.message), error: saved.error, variants: rows });
      return backToFlag(c, params, 'saved', 'variants-title');
    },
  }),
  defineRoute({
    ...page, method: 'post', path: `${FLAG}/dependencies`, permission: 'UPDATE_FEATURE', params: FeatureParamsSchema, success: BACK,
    summary: 'Make a flag depend on a parent flag of its project (on, optionally with one of its variants, or off)',
    handle: async ({ c, deps, params, principal, registry }) => {
      const form = c.get('form') ?? {};
      const variants = (form['variants'] ?? '').split(',').map((name) => name.trim()).filter((name) => name !== '');
      const body = { feature: form['feature'] ?? '', enabled: form['enabled'] !== 'false', ...(variants.length > 0 ? { variants } : {}) };
      const parsed = v.safeParse(CreateDependencySchema, body);
      const fieldOf = (message: string) => namedField(message.replace(/^"variants\.\d+"/, '"variants"'), ['feature', 'variants']);
      if (!parsed.success) { const error = invalid(parsed.issues); return refusedForm(c, deps, params, { form: 'dependencies', field: fieldOf(error.message), error }); }
      const added = await addDependency(registry, { ...params, ...parsed.output }, principal);
      if (!added.ok) return refusedForm(c, deps, params, { form: 'dependencies', field: fieldOf(added.error.message), error: added.error });
      return backToFlag(c, params, 'linked', 'dependencies-title');
    },
  }),
  defineRoute({
    ...page, method: 'post', path: `${FLAG}/dependencies/remove`, permission: 'UPDATE_FEATURE', params: FeatureParamsSchema, success: BACK,
    summary: 'Remove a flag\'s dependency on one parent (`parent`)',
    handle: async ({ c, deps, params, principal, registry }) => {
      const removed = await removeDependency(registry, { ...params, parent: c.get('form')?.['parent'] ?? '' }, principal);
      if (!removed.ok) return refusedForm(c, deps, params, { form: 'dependencies', field: null, error: removed.error });
      return backToFlag(c, params, 'unlinked', 'dependencies-title');
    },
  }),
];
