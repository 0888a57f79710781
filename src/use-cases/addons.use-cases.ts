/**
 * Writes of addons (docs/api-decisions.md "Integrations"): Unleash's checks in its order (the provider, its required
 * parameters, a `url` that reaches no private network unless allow-listed, a deprecated provider not created), then
 * one service command, decided in the service mailbox; creates and updates run in the registry's tag mailbox, since
 * a create may add the provider's tag types.
 */
import type { Registry } from '../actors/registry.js';
import type { DeliveryLogEntry } from '../actors/addons/delivery-log.js';
import { testEvent } from '../addons/test-event.js';
import { actorOf } from '../addons/unleash-event.js';
import { checkUrl } from '../addons/url-guard.js';
import { principalLabel, type Principal } from '../auth/permissions.js';
import { MASKED_VALUE, type Addon, type AddonInput } from '../domain/addons/addon.js';
import { addonInputRefusal } from '../domain/decide/service-addons.js';
import { about, fail } from '../domain/errors.js';
import { failed, fromDecision, ok, type Result } from '../domain/result.js';
import type { AddonBody } from '../schemas/addon.schema.js';

/** Unleash's URL check of `parameters.url` (unless masked): a 400 naming why it was refused. */
async function urlRefusal(registry: Registry, input: AddonInput): Promise<Result<null>> {
  const url = input.parameters['url'];
  if (typeof url !== 'string' || url === '' || url === MASKED_VALUE) return ok(null);
  const checked = await checkUrl(url, registry.deliveries.settings.sender.guard);
  return checked.ok ? ok(null) : failed(about('parameters.url', fail('ValidationError', checked.error.message)));
}

/** The body as the command takes it; an absent `description` is `fallback`. */
const inputOf = (body: AddonBody, fallback: string): AddonInput => ({
  provider: body.provider, description: body.description ?? fallback, enabled: body.enabled, parameters: body.parameters,
  events: body.events, projects: body.projects, environments: body.environments,
});

/** Creates an addon (201); 400 for an unknown or deprecated provider, a missing required parameter or a refused URL. */
export async function createAddon(registry: Registry, body: AddonBody, principal: Principal): Promise<Result<Addon>> {
  const input = inputOf(body, '');
  const refusal = addonInputRefusal(input, 'create');
  if (refusal) return failed(refusal);
  const url = await urlRefusal(registry, input);
  if (!url.ok) return url;
  return registry.tagWrites.run(async () => fromDecision(await registry.service.send({ type: 'addon.create', addon: input }, principalLabel(principal))));
}

/** Replaces an addon (404 first when unknown, as Unleash); a sensitive parameter sent as `*****` keeps its value. */
export async function updateAddon(registry: Registry, id: number, body: AddonBody, principal: Principal): Promise<Result<Addon>> {
  const existing = registry.service.state.addons?.[String(id)];
  if (!existing) return failed(fail('NotFoundError', `Could not find addon with id ${id}`));
  const input = inputOf(body, existing.description);
  const refusal = addonInputRefusal(input, 'update');
  if (refusal) return failed(refusal);
  const url = await urlRefusal(registry, input);
  if (!url.ok) return url;
  return registry.tagWrites.run(async () => fromDecision(await registry.service.send({ type: 'addon.update', id, addon: input }, principalLabel(principal))));
}

/**
 * Sends a test event to an addon now (flagpole's addition, docs/api-decisions.md "Integrations"), enabled or not, and
 * answers the attempt's delivery log entry (secrets masked); 404 when unknown, 429 while a test of it is in flight.
 */
export async function testAddon(registry: Registry, id: number, principal: Principal): Promise<Result<DeliveryLogEntry>> {
  const addon = registry.service.state.addons?.[String(id)];
  if (!addon) return failed(fail('NotFoundError', `Could not find addon with id ${id}`));
  const actor = actorOf(principalLabel(principal), (userId) => registry.service.state.users[String(userId)]);
  const entry = await registry.deliveries.sendTest(addon, testEvent(addon, actor, new Date().toISOString()));
  return entry === 'busy' ? failed(fail('TooManyRequests', `A test event of addon ${id} is on its way; send another once it is answered`)) : ok(entry);
}

/** Deletes an addon and, with it, its delivery log; an unknown id is no error (200, as Unleash). */
export async function deleteAddon(registry: Registry, id: number, principal: Principal): Promise<Result<null>> {
  const decision = await registry.service.send({ type: 'addon.delete', id }, principalLabel(principal));
  return decision.ok ? ok(null) : failed(decision.error);
}
