/** @jsxImportSource hono/jsx */
/**
 * A flag's page (`/projects/:projectId/features/:featureName`) and its forms: metadata, tags, the switch of each
 * environment, archive, revive, delete, clone, variants and dependencies. Each form is declared (`forms/`), its
 * post calls the use case the API's route calls, and answers a 303 back to the page, or the page again with the
 * API's messages next to the fields they name. The strategy forms are in `flag-strategy.pages.tsx`.
 */
import { FeatureEnvironmentParamsSchema, FeatureParamsSchema } from '../../schemas/params.schema.js';
import { addDependency, removeDependency } from '../../use-cases/dependencies.use-cases.js';
import { archiveFlag, cloneFlag, deleteArchivedFlags, reviveFlags, updateFlag } from '../../use-cases/flags.use-cases.js';
import { changeTags } from '../../use-cases/tags.use-cases.js';
import { setVariants } from '../../use-cases/variants.use-cases.js';
import { inputOf } from '../../http/route.js';
import { sendSwitch } from '../flag-switch.js';
import { SwitchForm } from '../forms/flag-table.forms.js';
import { buttonForm, CloneForm, DependencyForm, MetadataForm, RemoveDependencyForm, RemoveTagForm, TagForm } from '../forms/flag.forms.js';
import { refusalOf } from '../forms/form.js';
import { VariantsForm } from '../forms/variants.form.js';
import { definePage } from '../page.js';
import { idOf } from '../views/form-parts.js';
import { directOrDraft, firstProtected, isDrafted } from '../change-drafts.js';
import { flagDone, flagDrafted, flagPage, refusedOnFlag } from './flag-page-render.js';

const FLAG = '/projects/:projectId/features/:featureName';
const BACK = { status: 303, description: 'Back to the flag page' };
const LIFECYCLE = buttonForm('lifecycle');

export const flagPages = [
  definePage({
    method: 'get', path: FLAG, permission: 'READ', params: FeatureParamsSchema,
    summary: 'A flag\'s page: details, tags, environments with their strategies, variants, usage',
    handle: ({ c, deps, params }) => flagPage(c, deps, params),
  }),
  definePage({
    method: 'post', path: `${FLAG}/metadata`, permission: 'UPDATE_FEATURE', params: FeatureParamsSchema, form: MetadataForm, conditional: true, success: BACK,
    summary: 'Save a flag\'s description, type, stale mark and impression data',
    handle: ({ registry, params, form, ifMatch, principal }) => updateFlag(registry, inputOf(params, form, { ifMatch }), principal),
    done: (_, { params }) => flagDone(params, 'saved', 'details-title'),
    refused: refusedOnFlag,
  }),
  definePage({
    method: 'post', path: `${FLAG}/tags`, permission: 'UPDATE_FEATURE', params: FeatureParamsSchema, form: TagForm, success: BACK,
    summary: 'Add a tag (type:value) to a flag',
    handle: ({ registry, params, form, principal }) => changeTags(registry, { projectId: params.projectId, features: [params.featureName], added: [form], removed: [] }, principal),
    done: (_, { params }) => flagDone(params, 'tagged', 'tags-title'),
    refused: refusedOnFlag,
  }),
  definePage({
    method: 'post', path: `${FLAG}/tags/remove`, permission: 'UPDATE_FEATURE', params: FeatureParamsSchema, form: RemoveTagForm, success: BACK,
    summary: 'Remove a tag from a flag',
    handle: ({ registry, params, form, principal }) => changeTags(registry, { projectId: params.projectId, features: [params.featureName], added: [], removed: [form] }, principal),
    done: (_, { params }) => flagDone(params, 'tagged', 'tags-title'),
    refused: refusedOnFlag,
  }),
  definePage({
    method: 'post', path: `${FLAG}/environments/:environment/toggle`, permission: 'UPDATE_FEATURE_ENVIRONMENT', params: FeatureEnvironmentParamsSchema,
    form: SwitchForm, conditional: true, success: { status: 303, description: 'Back to the flag page, or the page with the offer to add a strategy first' },
    summary: 'Switch a flag on (`enabled=on`) or off in an environment; switching on what nothing would serve first offers to add a strategy (`with`)',
    handle: async (call) => {
      const { c, deps, params } = call;
      const outcome = await sendSwitch(call);
      if (outcome.kind === 'switched') return c.redirect(flagDone(params, 'toggled', idOf('env', params.environment)), 303);
      if (outcome.kind === 'drafted') return c.redirect(flagDrafted(params, { drafted: outcome.request, environment: outcome.environment }, idOf('env', params.environment)), 303);
      if (outcome.kind === 'offer') return flagPage(c, deps, params, { offer: outcome.offer });
      const refusal = refusalOf(SwitchForm, outcome.error, undefined);
      c.status(refusal.status as 400);
      return refusedOnFlag(call, refusal, `toggle:${params.environment}`);
    },
  }),
  definePage({
    method: 'post', path: `${FLAG}/archive`, permission: 'DELETE_FEATURE', params: FeatureParamsSchema, form: LIFECYCLE, conditional: true, success: BACK,
    summary: 'Archive a flag',
    handle: (call) => directOrDraft(call, () => archiveFlag(call.registry, inputOf(call.params, { ifMatch: call.ifMatch }), call.principal),
      () => ({ environment: firstProtected(call.project().state), changes: [{ feature: call.params.featureName, action: 'archiveFeature' }] })),
    done: (value, { params }) => (isDrafted(value) ? flagDrafted(params, value) : flagDone(params, 'archived')),
    refused: refusedOnFlag,
  }),
  definePage({
    method: 'post', path: `${FLAG}/revive`, permission: 'DELETE_FEATURE', params: FeatureParamsSchema, form: LIFECYCLE, success: BACK,
    summary: 'Revive an archived flag (off in every environment)',
    handle: ({ registry, params, principal }) => reviveFlags(registry, { projectId: params.projectId, features: [params.featureName] }, principal),
    done: (_, { params }) => flagDone(params, 'revived'),
    refused: refusedOnFlag,
  }),
  definePage({
    method: 'post', path: `${FLAG}/delete`, permission: 'DELETE_FEATURE', params: FeatureParamsSchema, form: LIFECYCLE,
    success: { status: 303, description: 'To the project page' }, summary: 'Delete an archived flag for good',
    handle: ({ registry, params, principal }) => deleteArchivedFlags(registry, { projectId: params.projectId, features: [params.featureName] }, principal),
    done: (_, { params }) => `/projects/${encodeURIComponent(params.projectId)}`,
    refused: refusedOnFlag,
  }),
  definePage({
    method: 'post', path: `${FLAG}/clone`, permission: 'CREATE_FEATURE', params: FeatureParamsSchema, form: CloneForm, conditional: true,
    success: { status: 303, description: 'To the new flag\'s page' }, summary: 'Clone a flag under a new name (its strategies and variants, off everywhere)',
    handle: ({ registry, params, form, ifMatch, principal }) => cloneFlag(registry, inputOf(params, form, { ifMatch }), principal),
    done: (clone, { params }) => flagDone({ projectId: params.projectId, featureName: clone.name }, 'cloned'),
    refused: refusedOnFlag,
  }),
  definePage({
    method: 'post', path: `${FLAG}/variants`, permission: 'UPDATE_FEATURE_VARIANTS', params: FeatureParamsSchema, form: VariantsForm, conditional: true, success: BACK,
    summary: 'Replace a flag\'s variants (the rows of the variants form, with their overrides)',
    handle: (call) => directOrDraft(call, () => setVariants(call.registry, inputOf(call.params, { variants: call.form, ifMatch: call.ifMatch }), call.principal),
      () => ({ environment: firstProtected(call.project().state), changes: [{ feature: call.params.featureName, action: 'patchVariant', payload: { variants: call.form } }] })),
    done: (value, { params }) => (isDrafted(value) ? flagDrafted(params, value, 'variants-title') : flagDone(params, 'saved', 'variants-title')),
    refused: refusedOnFlag,
  }),
  definePage({
    method: 'post', path: `${FLAG}/dependencies`, permission: 'UPDATE_FEATURE', params: FeatureParamsSchema, form: DependencyForm, success: BACK,
    summary: 'Make a flag depend on a parent flag of its project (on, optionally with one of its variants, or off)',
    handle: ({ registry, params, form, principal }) => addDependency(registry, inputOf(params, form), principal),
    done: (_, { params }) => flagDone(params, 'linked', 'dependencies-title'),
    refused: refusedOnFlag,
  }),
  definePage({
    method: 'post', path: `${FLAG}/dependencies/remove`, permission: 'UPDATE_FEATURE', params: FeatureParamsSchema, form: RemoveDependencyForm, success: BACK,
    summary: 'Remove a flag\'s dependency on one parent (`parent`)',
    handle: ({ registry, params, form, principal }) => removeDependency(registry, inputOf(params, form), principal),
    done: (_, { params }) => flagDone(params, 'unlinked', 'dependencies-title'),
    refused: refusedOnFlag,
  }),
];
