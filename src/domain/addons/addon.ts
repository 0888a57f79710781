/**
 * Addons (Unleash's integrations, docs/api-decisions.md "Integrations"): service-wide configurations that send the
 * service's events to a webhook, Slack, Teams, Datadog or New Relic. The service actor holds them; the delivery of
 * events is outside the mailboxes (`src/actors/addon-deliveries.ts`).
 */
import { DATADOG, NEW_RELIC, WEBHOOK } from './providers-http.js';
import { SLACK, SLACK_APP, TEAMS, TEAMS_WORKFLOW } from './providers-chat.js';
import type { ProviderDefinition } from './provider-definition.js';

/** A parameter value, as Unleash's schema allows. */
export type ParameterValue = string | number | boolean;

/** An addon as stored and (with its secrets masked) answered. */
export interface Addon {
  id: number;
  provider: string;
  description: string;
  enabled: boolean;
  /** By parameter name; the provider's sensitive ones are never answered, dumped or logged (`*****`). */
  parameters: Record<string, ParameterValue>;
  /** Unleash event types (`feature-created`, ...); any name is accepted, as in Unleash. */
  events: string[];
  /** Projects whose events it gets: `[]` or `['*']` for all. */
  projects: string[];
  /** Environments whose events it gets: `[]` or `['*']` for all. */
  environments: string[];
  createdAt: string;
}

/** What a create or an update gives (the body, validated). */
export type AddonInput = Omit<Addon, 'id' | 'createdAt'>;

/** What stands for a sensitive parameter in every answer; sent back in an update, it keeps the stored value. */
export const MASKED_VALUE = '*****';

/** Every provider, in Unleash's order (`GET /api/admin/addons` lists them so). */
export const PROVIDERS: readonly ProviderDefinition[] = [WEBHOOK, SLACK, SLACK_APP, TEAMS, DATADOG, NEW_RELIC, TEAMS_WORKFLOW];

const BY_NAME = new Map(PROVIDERS.map((p) => [p.name, p]));

/** The provider named so, or undefined. */
export const providerNamed = (name: string): ProviderDefinition | undefined => BY_NAME.get(name);

/** The names of a provider's sensitive parameters (none for an unknown provider). */
export const sensitiveParameters = (provider: string): string[] =>
  providerNamed(provider)?.parameters.filter((p) => p.sensitive).map((p) => p.name) ?? [];

/**
 * The addon as it may be shown: every sensitive parameter it has replaced by `*****` (unset ones stay absent).
 * Picks each value, so a parameter name such as `__proto__` stays a plain key.
 *
 * @example masked(addon).parameters.url // '*****'
 */
export function masked(addon: Addon): Addon {
  const secret = new Set(sensitiveParameters(addon.provider));
  const parameters: Record<string, ParameterValue> = Object.create(null);
  for (const [name, value] of Object.entries(addon.parameters)) parameters[name] = secret.has(name) ? MASKED_VALUE : value;
  return { ...addon, parameters };
}

/** The sensitive values an addon holds (strings of 4 characters or more), to scrub from anything shown. */
export function secretsOf(addon: Addon): string[] {
  return sensitiveParameters(addon.provider)
    .map((name) => addon.parameters[name])
    .filter((value): value is string => typeof value === 'string' && value.length >= 4 && value !== MASKED_VALUE);
}

/** Whether a filter (`projects` or `environments`) lets `value` through: an empty list, `*` first, or the value listed. */
const passes = (filter: readonly string[], value: string | null): boolean =>
  value === null || filter.length === 0 || filter[0] === '*' || filter.includes(value);

/**
 * Whether an enabled addon takes an event, by Unleash's rule: the type is in its `events`, and its project and
 * environment filters let the event's through (an event without a project or environment passes that filter).
 */
export function takes(addon: Addon, event: { type: string; project: string | null; environment: string | null }): boolean {
  return addon.enabled && addon.events.includes(event.type) && passes(addon.projects, event.project) && passes(addon.environments, event.environment);
}
