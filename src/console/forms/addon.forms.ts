/**
 * The forms of the integration pages (`/admin/integrations`), validated by the addon API's body schema: the
 * provider's own form (its parameters as `parameters.<name>`, the events, projects and environments as checkboxes,
 * `*` for all) and the list's enable/disable switch. An empty parameter is left out of the body, as the API takes an
 * absent one, so a required one left empty is the use case's "Missing required parameters" on its field.
 */
import * as v from 'valibot';
import { AddonBodySchema } from '../../schemas/addon.schema.js';
import { checkbox, group, list, text, trimmed } from './fields.js';
import { defineForm } from './form.js';

const AddonFields = v.object({
  provider: trimmed(), description: text(), enabled: checkbox(), parameters: group(),
  events: list(), projects: list(), environments: list(),
});
/** The provider form as sent (what it shows again after a refusal; secrets aside, `integration-form.tsx`). */
export type AddonDraft = v.InferOutput<typeof AddonFields>;

/** A projects or environments filter: `*` checked means all (Unleash's `['*']`), else the ones checked. */
const filterOf = (checked: string[]): string[] => (checked.includes('*') ? ['*'] : checked);

const TOP = ['provider', 'description', 'enabled', 'events', 'projects', 'environments'];

/**
 * A new addon (`POST /admin/integrations`) or an addon's edit (`POST /admin/integrations/:id`): the addon API's body.
 * A sensitive parameter left as `*****` keeps its stored value (the use case's rule, as for the API's `PUT`).
 */
export const AddonForm = defineForm({
  name: 'addon',
  fields: AddonFields,
  body: (draft) => ({
    provider: draft.provider, description: draft.description, enabled: draft.enabled,
    parameters: Object.fromEntries(Object.entries(draft.parameters).filter(([, value]) => value !== '')),
    events: draft.events, projects: filterOf(draft.projects), environments: filterOf(draft.environments),
  }),
  schema: AddonBodySchema,
  // `parameters.url` marks that parameter's field; a list's entry (`events.3`) marks the list.
  field: (path) => {
    const [head, name] = path.split('.');
    if (head === 'parameters') return name === undefined ? undefined : `parameters.${name}`;
    return TOP.includes(head!) ? head : undefined;
  },
});

/** The list's switch of one addon: `enabled` `true` or `false`. */
export const AddonEnabledForm = defineForm({
  name: 'enabled',
  fields: v.object({ enabled: text() }),
  schema: v.object({ enabled: v.pipe(v.picklist(['true', 'false'], 'must be true or false'), v.transform((on) => on === 'true')) }),
  // Its one field is hidden (the switch's button says which way): a refusal is said above the list.
  field: () => undefined,
});
