/** @jsxImportSource hono/jsx */
/**
 * What the integration pages share: their addresses, how a delivery's state reads, and how an addon is named
 * (its provider's display name, then its description).
 */
import type { DeliveryLogEntry } from '../../../actors/addons/delivery-log.js';
import { providerNamed, type Addon } from '../../../domain/addons/addon.js';

/** The list of integrations (and where a new one is posted). */
export const INTEGRATIONS = '/admin/integrations';

/** An addon's page (its form), and the addresses of its actions. */
export const integrationUrl = (id: number, action?: 'enabled' | 'delete' | 'test' | 'deliveries'): string =>
  `${INTEGRATIONS}/${id}${action ? `/${action}` : ''}`;

/** The new-integration form of a provider. */
export const newIntegrationUrl = (provider: string): string => `/admin/new-integration/${encodeURIComponent(provider)}`;

/** An addon as a person names it: its provider's display name (the provider's name when unknown). */
export const addonTitle = (addon: Pick<Addon, 'provider'>): string => providerNamed(addon.provider)?.displayName ?? addon.provider;

const STATES: Record<DeliveryLogEntry['state'], { label: string; class: string }> = {
  success: { label: 'Delivered', class: 'badge delivery-success' },
  successWithErrors: { label: 'Delivered with errors', class: 'badge delivery-partial' },
  failed: { label: 'Failed', class: 'badge delivery-failed' },
};

/** A delivery attempt's state as a badge; a failed one still to be retried says so. */
export function DeliveryState({ entry }: { entry: Pick<DeliveryLogEntry, 'state' | 'retryAt'> }) {
  const state = STATES[entry.state];
  return <span class={state.class}>{entry.state === 'failed' && entry.retryAt !== null ? 'Failed, will retry' : state.label}</span>;
}

/** On or off, in words (and a class the list colours). */
export function EnabledBadge({ enabled }: { enabled: boolean }) {
  return enabled ? <span class="badge delivery-success">Enabled</span> : <span class="badge">Disabled</span>;
}
