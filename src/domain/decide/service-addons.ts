/**
 * Decisions on addons, in the service mailbox: the provider known (deprecated ones only kept, never created), its
 * required parameters present, masked secrets resolved against the stored addon, the limit, and the provider's tag
 * types created when missing (as Unleash does on create). Messages are Unleash's.
 */
import { LIMIT_VARIABLES, overLimit } from '../../limits.js';
import { MASKED_VALUE, providerNamed, sensitiveParameters, type Addon, type AddonInput, type ParameterValue } from '../addons/addon.js';
import type { CommandContext } from '../context.js';
import { about, accept, fail, refuse, type Decision, type DomainError } from '../errors.js';
import type { ServiceCommand } from '../service-commands.js';
import type { ServiceEvent } from '../service-events.js';
import type { ServiceState } from '../service-state.js';

type Of<T extends ServiceCommand['type']> = Extract<ServiceCommand, { type: T }>;

/**
 * Unleash's checks of an addon body after its schema, in its order: the provider is known, its required parameters
 * are there (as keys), and (on create) the provider is not deprecated. Null when the body passes. The use case runs
 * it before the URL check, the mailbox again as the deciding one.
 *
 * @example addonInputRefusal({ provider: 'nope', ... }, 'create')?.message // 'Unknown addon provider nope'
 */
export function addonInputRefusal(input: Pick<AddonInput, 'provider' | 'parameters'>, write: 'create' | 'update'): DomainError | null {
  const provider = providerNamed(input.provider);
  if (!provider) return fail('ValidationError', `Unknown addon provider ${input.provider}`);
  const missing = provider.parameters.filter((p) => p.required && !Object.hasOwn(input.parameters, p.name)).map((p) => p.name);
  // The trailing space is Unleash's; the path (the first one missing) is where a console form marks it.
  if (missing.length > 0) return about(`parameters.${missing[0]}`, fail('ValidationError', `Missing required parameters: ${missing.join(',')} `));
  if (write === 'create' && provider.deprecated) return fail('ValidationError', provider.deprecated);
  return null;
}

/** The addon with its keys in one order (so an unchanged addon compares equal and dumps read the same). */
const addonOf = (id: number, input: AddonInput, createdAt: string): Addon => ({
  id, provider: input.provider, description: input.description, enabled: input.enabled, parameters: input.parameters,
  events: input.events, projects: input.projects, environments: input.environments, createdAt,
});

/**
 * Parameters of an update: each sensitive one sent as `*****` takes the stored value (dropped when there is none),
 * as Unleash does, so a client can send back what it read.
 */
function unmasked(parameters: Record<string, ParameterValue>, provider: string, stored: Addon): Record<string, ParameterValue> {
  const out: Record<string, ParameterValue> = Object.create(null);
  const sensitive = sensitiveParameters(provider).length > 0;
  for (const [name, value] of Object.entries(parameters)) {
    if (sensitive && value === MASKED_VALUE) {
      if (Object.hasOwn(stored.parameters, name)) out[name] = stored.parameters[name]!;
    } else {
      out[name] = value;
    }
  }
  return out;
}

/** Creates an addon, and the tag types its provider uses that are missing, within the limits. */
export function decideCreateAddon(draft: ServiceState, { addon }: Of<'addon.create'>, context: CommandContext): Decision<ServiceEvent, Addon> {
  const refusal = addonInputRefusal(addon, 'create');
  if (refusal) return refuse(refusal);
  const count = Object.keys(draft.addons ?? {}).length;
  if (count >= context.limits.addons) return refuse(fail('ExceedsLimitError', overLimit('The number of addons', context.limits.addons, LIMIT_VARIABLES.addons)));
  const created = addonOf(draft.nextAddonId ?? 1, addon, context.at);
  const events: ServiceEvent[] = [{ type: 'addon.created', addon: created }];
  // Unleash creates them quietly and goes on when it cannot; a tag type limit reached is not the addon's failure.
  let tagTypes = draft.tagTypes.length;
  for (const tagType of providerNamed(addon.provider)?.tagTypes ?? []) {
    if (draft.tagTypes.some((t) => t.name === tagType.name) || tagTypes >= context.limits.tagTypes) continue;
    events.push({ type: 'tag-type.created', tagType: { name: tagType.name, description: tagType.description, icon: tagType.icon, color: null } });
    tagTypes += 1;
  }
  return accept(events, created);
}

/** Replaces an addon: 404 when unknown; masked secrets keep their stored values; an unchanged addon records nothing. */
export function decideUpdateAddon(draft: ServiceState, { id, addon }: Of<'addon.update'>): Decision<ServiceEvent, Addon> {
  const before = draft.addons?.[String(id)];
  if (!before) return refuse(fail('NotFoundError', `Could not find addon with id ${id}`));
  const refusal = addonInputRefusal(addon, 'update');
  if (refusal) return refuse(refusal);
  const after = addonOf(id, { ...addon, parameters: unmasked(addon.parameters, addon.provider, before) }, before.createdAt);
  if (JSON.stringify(after) === JSON.stringify(before)) return accept([], before);
  return accept([{ type: 'addon.updated', addon: after, before }], after);
}

/** Deletes an addon; an unknown id is no error and records nothing (Unleash answers 200 then too). */
export function decideDeleteAddon(draft: ServiceState, { id }: Of<'addon.delete'>): Decision<ServiceEvent, Addon | null> {
  const addon = draft.addons?.[String(id)];
  return addon ? accept([{ type: 'addon.deleted', addon }], addon) : accept([], null);
}
