/**
 * The integration pages (`/admin/integrations`, issue 42): the list with each addon's switch, a provider's form to add
 * one, an addon's page to edit, test or delete it, and its delivery log. Each write calls the addon use case the API's
 * route calls (`src/use-cases/addons.use-cases.ts`), under the same permission (`UPDATE_ADDONS`; the log `ADMIN`).
 */
import { FIRST_LIST_PAGE, ListPageQuerySchema } from '../../schemas/admin-pages.schema.js';
import { AddonParamsSchema } from '../../schemas/addon.schema.js';
import { looseObject, nonEmptyString } from '../../schemas/common.schema.js';
import { addonById } from '../../queries/addons.query.js';
import { createAddon, deleteAddon, testAddon, updateAddon } from '../../use-cases/addons.use-cases.js';
import { AddonEnabledForm, AddonForm } from '../forms/addon.forms.js';
import { buttonForm } from '../forms/flag.forms.js';
import { done } from '../notices.js';
import { definePage } from '../page.js';
import { INTEGRATIONS, integrationUrl } from '../views/integrations/integration-parts.js';
import { addonIdOf, integrationPage, listPage, logPage, newPage } from './integrations-render.js';

/** `/admin/new-integration/:provider`. */
const ProviderParamsSchema = looseObject({ provider: nonEmptyString(100) });

const ADDON = `${INTEGRATIONS}/:id`;

export const integrationPages = [
  definePage({
    method: 'get', path: INTEGRATIONS, permission: 'READ', query: ListPageQuerySchema,
    summary: 'The integrations (addons, secrets masked) and the providers to add one of (`?q=`, `?page=`)',
    handle: ({ c, deps, query }) => listPage(c, deps, query),
  }),
  definePage({
    method: 'get', path: '/admin/new-integration/:provider', permission: 'UPDATE_ADDONS', params: ProviderParamsSchema,
    summary: 'A provider\'s form for a new integration',
    handle: ({ c, deps, params }) => newPage(c, deps, params.provider),
  }),
  definePage({
    method: 'post', path: INTEGRATIONS, permission: 'UPDATE_ADDONS', form: AddonForm,
    success: { status: 303, description: 'To the new integration\'s page' }, summary: 'Add an integration',
    handle: ({ registry, form, principal }) => createAddon(registry, form, principal),
    done: (created) => done(integrationUrl(created.id), 'integrations', 'created'),
    refused: ({ c, deps, draft }, refusal) => newPage(c, deps, draft.provider, refusal),
  }),
  definePage({
    method: 'get', path: ADDON, permission: 'READ', params: AddonParamsSchema,
    summary: 'An integration: its settings (secrets masked) and actions',
    handle: ({ c, deps, params }) => integrationPage(c, deps, addonIdOf(params.id)),
  }),
  definePage({
    method: 'post', path: ADDON, permission: 'UPDATE_ADDONS', params: AddonParamsSchema, form: AddonForm,
    success: { status: 303, description: 'Back to the integration\'s page' }, summary: 'Save an integration (a secret left as `*****` keeps its value)',
    handle: ({ registry, params, form, principal }) => updateAddon(registry, addonIdOf(params.id), form, principal),
    done: (_, { params }) => done(integrationUrl(Number(params.id)), 'integrations', 'saved'),
    refused: ({ c, deps, params }, refusal) => integrationPage(c, deps, addonIdOf(params.id), { refused: refusal }),
  }),
  definePage({
    method: 'post', path: `${ADDON}/enabled`, permission: 'UPDATE_ADDONS', params: AddonParamsSchema, form: AddonEnabledForm,
    success: { status: 303, description: 'Back to the list' }, summary: 'Enable or disable an integration (the list\'s switch)',
    handle: ({ registry, params, form, principal }) => {
      const found = addonById(registry, addonIdOf(params.id));
      // The addon as read (masked) sent back with `enabled` changed, as the API's `PUT` takes it.
      return found.ok ? updateAddon(registry, found.value.id, { ...found.value, enabled: form.enabled }, principal) : found;
    },
    done: (addon) => done(INTEGRATIONS, 'integrations', addon.enabled ? 'enabled' : 'disabled'),
    refused: ({ c, deps }, refusal) => listPage(c, deps, FIRST_LIST_PAGE, refusal),
  }),
  definePage({
    method: 'post', path: `${ADDON}/test`, permission: 'UPDATE_ADDONS', params: AddonParamsSchema, form: buttonForm('test'),
    success: { status: 200, description: 'The integration\'s page with the test\'s answer' }, errors: ['TooManyRequests'],
    summary: 'Send a test event through an integration now (the API\'s `POST /api/admin/addons/:id/test`)',
    handle: async ({ c, deps, registry, params, principal }) => {
      const tested = await testAddon(registry, addonIdOf(params.id), principal);
      return tested.ok ? integrationPage(c, deps, Number(params.id), { tested: tested.value }) : tested;
    },
    refused: ({ c, deps, params }, refusal) => integrationPage(c, deps, addonIdOf(params.id), { refused: refusal }),
  }),
  definePage({
    method: 'post', path: `${ADDON}/delete`, permission: 'UPDATE_ADDONS', params: AddonParamsSchema, form: buttonForm('delete'),
    success: { status: 303, description: 'To the list' }, summary: 'Delete an integration and its delivery log',
    handle: ({ registry, params, principal }) => deleteAddon(registry, addonIdOf(params.id), principal),
    done: () => done(INTEGRATIONS, 'integrations', 'deleted'),
    refused: ({ c, deps, params }, refusal) => integrationPage(c, deps, addonIdOf(params.id), { refused: refusal }),
  }),
  definePage({
    method: 'get', path: `${ADDON}/deliveries`, permission: 'ADMIN', params: AddonParamsSchema, query: ListPageQuerySchema,
    summary: 'An integration\'s delivery log, newest first (`?page=`)',
    handle: ({ c, deps, params, query }) => logPage(c, deps, addonIdOf(params.id), query.page),
  }),
];
