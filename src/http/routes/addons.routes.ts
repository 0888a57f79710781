/**
 * Unleash's addon API (docs/api-decisions.md "Integrations"): `/api/admin/addons` lists the addons with every
 * provider's definition, creates, reads, replaces and deletes one, and reads its delivery log. Every answer masks
 * the addons' secrets, the create's and the update's too (Unleash answers those in clear).
 */
import { AddonBodySchema, AddonParamsSchema, AddonView, AddonsView, DeliveryLogQuerySchema, DeliveryLogView } from '../../schemas/addon.schema.js';
import { addonById, addonList, deliveryLog } from '../../queries/addons.query.js';
import { createAddon, deleteAddon, updateAddon } from '../../use-cases/addons.use-cases.js';
import { masked, type Addon } from '../../domain/addons/addon.js';
import { fail } from '../../domain/errors.js';
import { failed } from '../../domain/result.js';
import { apiError } from '../errors.js';
import { defineRoute, type RouteSpec } from '../route.js';

const ADDONS = '/api/admin/addons';
const ADDON = `${ADDONS}/:id`;

/** An addon id from the path: anything but a positive integer names no addon (404). */
const addonId = (raw: string): number | null => (/^\d{1,15}$/.test(raw) && Number(raw) > 0 ? Number(raw) : null);
const noSuchAddon = (raw: string) => failed(fail('NotFoundError', `Could not find addon with id ${raw.slice(0, 100)}`));

export const addonRoutes: RouteSpec[] = [
  defineRoute({
    method: 'get', path: ADDONS, tag: 'Addons', permission: 'READ',
    summary: 'List the addons (secrets masked) and every provider\'s definition', success: { status: 200, description: '`{addons, providers}`', schema: AddonsView },
    handle: ({ c, registry }) => c.json(addonList(registry)),
  }),
  defineRoute({
    method: 'post', path: ADDONS, tag: 'Addons', permission: 'UPDATE_ADDONS',
    summary: 'Create an addon', body: AddonBodySchema,
    success: { status: 201, description: 'The addon, secrets masked', schema: AddonView }, errors: ['ExceedsLimitError'],
    handle: ({ body, principal, registry }) => createAddon(registry, body, principal),
    view: (addon: Addon) => masked(addon),
  }),
  defineRoute({
    method: 'get', path: ADDON, tag: 'Addons', permission: 'READ',
    summary: 'Get an addon (secrets masked)', params: AddonParamsSchema,
    success: { status: 200, description: 'The addon', schema: AddonView }, errors: ['NotFoundError'],
    handle: ({ params, registry }) => {
      const id = addonId(params.id);
      return id === null ? noSuchAddon(params.id) : addonById(registry, id);
    },
    view: (addon) => addon,
  }),
  defineRoute({
    method: 'put', path: ADDON, tag: 'Addons', permission: 'UPDATE_ADDONS',
    summary: 'Replace an addon; a sensitive parameter sent as `*****` keeps its value', params: AddonParamsSchema, body: AddonBodySchema,
    success: { status: 200, description: 'The addon, secrets masked', schema: AddonView }, errors: ['NotFoundError'],
    handle: ({ params, body, principal, registry }) => {
      const id = addonId(params.id);
      return id === null ? noSuchAddon(params.id) : updateAddon(registry, id, body, principal);
    },
    view: (addon: Addon) => masked(addon),
  }),
  defineRoute({
    method: 'delete', path: ADDON, tag: 'Addons', permission: 'UPDATE_ADDONS',
    summary: 'Delete an addon and its delivery log (an unknown id is no error, as in Unleash)', params: AddonParamsSchema,
    success: { status: 200, description: 'No body' },
    handle: async ({ params, principal, registry }) => {
      const id = addonId(params.id);
      return id === null ? noSuchAddon(params.id) : deleteAddon(registry, id, principal);
    },
  }),
  defineRoute({
    method: 'get', path: `${ADDON}/events`, tag: 'Addons', permission: 'ADMIN',
    summary: 'An addon\'s delivery log, newest first: one entry per attempt (secrets masked)', params: AddonParamsSchema, query: DeliveryLogQuerySchema,
    success: { status: 200, description: '`{integrationEvents}`', schema: DeliveryLogView },
    handle: ({ params, query, registry }) => {
      const id = addonId(params.id);
      if (id === null) throw apiError('ValidationError', 'Invalid integration configuration id');
      return deliveryLog(registry, id, query);
    },
    view: (page) => page,
  }),
];
