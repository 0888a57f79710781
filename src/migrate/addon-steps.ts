/**
 * The addons of a migration (docs/migration.md "Addons"): each one created in flagpole with its secrets, which
 * Unleash's API masks, taken from `--addon-secrets`; one whose secrets are missing, whose provider flagpole does not
 * deliver to, or which Unleash itself no longer creates (`slack`, `teams`) is skipped with the reason. An addon the
 * target holds already (same provider, description, events, filters, state and non-secret parameters) is unchanged.
 */
import { MASKED_VALUE, providerNamed, sensitiveParameters } from '../domain/addons/addon.js';
import type { Step } from './plan.js';
import type { SourceAddon, SourceData } from './source-model.js';
import type { TargetDump } from './target.js';

/** `--addon-secrets`: by the Unleash addon's id, the values of its masked parameters. */
export type AddonSecrets = Record<string, Record<string, string>>;

/** The source with each addon's masked parameters replaced by the values `secrets` gives for them. */
export function withAddonSecrets(source: SourceData, secrets: AddonSecrets): SourceData {
  const addons = source.addons.map((addon) => {
    const given = Object.hasOwn(secrets, String(addon.id)) ? secrets[String(addon.id)]! : {};
    const parameters = { ...addon.parameters };
    for (const [name, value] of Object.entries(given)) if (parameters[name] === MASKED_VALUE || !Object.hasOwn(parameters, name)) parameters[name] = value;
    return { ...addon, parameters };
  });
  return { ...source, addons };
}

/** What makes two addons the same for a second run: everything but the secrets (the target's dump masks them). */
const identity = (a: Omit<SourceAddon, 'id'>) => {
  const secret = new Set(sensitiveParameters(a.provider));
  const parameters = Object.fromEntries(Object.entries(a.parameters).filter(([name]) => !secret.has(name)).sort(([x], [y]) => (x < y ? -1 : 1)));
  return JSON.stringify([a.provider, a.description, a.enabled, parameters, a.events, a.projects, a.environments]);
};

/** One step per addon of the source. */
export function addonSteps(source: SourceData, dump: TargetDump): Step[] {
  const existing = new Set(Object.values(dump.service.state.addons ?? {}).map(identity));
  return source.addons.map((addon): Step => {
    const name = `#${addon.id} (${addon.provider}${addon.description ? `: ${addon.description}` : ''})`;
    const skip = (detail: string): Step => ({ kind: 'addons', name, action: 'skip', detail, ops: [] });
    const provider = providerNamed(addon.provider);
    if (!provider) return skip(`flagpole has no "${addon.provider}" integration`);
    if (provider.deprecated) return skip(`"${addon.provider}" is deprecated and cannot be created (in Unleash neither): re-create it as ${addon.provider === 'slack' ? 'slack-app' : 'teamsworkflow'}`);
    const masked = Object.entries(addon.parameters).filter(([, value]) => value === MASKED_VALUE).map(([param]) => param);
    if (masked.length > 0) return skip(`Unleash's API masks its secrets (${masked.join(', ')}): give them with --addon-secrets FILE, {"${addon.id}": {"${masked[0]}": "..."}}`);
    if (existing.has(identity(addon))) return { kind: 'addons', name, action: 'unchanged', ops: [] };
    const { id: _unleashId, ...body } = addon;
    return { kind: 'addons', name, action: 'create', ops: [{ method: 'POST', path: '/api/admin/addons', body }] };
  });
}
