/**
 * Reads of addons: the list with every provider's definition, one addon, and an addon's delivery log. Every addon
 * read here is masked (`*****` for each sensitive parameter): no answer carries a secret.
 */
import type { Registry } from '../actors/registry.js';
import type { DeliveryLogEntry } from '../actors/delivery-log.js';
import { PROVIDERS, masked, type Addon } from '../domain/addons/addon.js';
import type { ProviderDefinition } from '../domain/addons/provider-definition.js';
import { fail } from '../domain/errors.js';
import { failed, ok, type Result } from '../domain/result.js';

/** Every addon (by id, masked) and every provider (in Unleash's order). */
export function addonList(registry: Registry): { addons: Addon[]; providers: readonly ProviderDefinition[] } {
  const addons = Object.values(registry.service.state.addons ?? {}).sort((a, b) => a.id - b.id).map(masked);
  return { addons, providers: PROVIDERS };
}

/** One addon, masked; 404 when unknown. */
export function addonById(registry: Registry, id: number): Result<Addon> {
  const addon = registry.service.state.addons?.[String(id)];
  return addon ? ok(masked(addon)) : failed(fail('NotFoundError', `Could not find addon with id ${id}`));
}

/**
 * A page of an addon's delivery log, newest first, read as Unleash reads the query: `limit` 1 to 100 (else 50),
 * `offset` 0 or more (else 0). An unknown addon has an empty log (as in Unleash).
 */
export async function deliveryLog(registry: Registry, id: number, query: { limit?: string | undefined; offset?: string | undefined }): Promise<Result<{ integrationEvents: DeliveryLogEntry[] }>> {
  const limit = Number(query.limit);
  const offset = Number(query.offset);
  const page = await registry.deliveries.page(
    id,
    Number.isInteger(limit) && limit >= 1 && limit <= 100 ? limit : 50,
    Number.isInteger(offset) && offset > 0 ? offset : 0,
  );
  return ok({ integrationEvents: page });
}
