/**
 * Context fields and strategy definitions (docs/api-decisions.md "Context fields and strategy definitions"):
 * service-wide records, decided in the service mailbox. A flag's strategy must name a defined strategy, and a
 * constraint on a context field with legal values may only use those values; the project mailbox checks both
 * against the committed service state (`ProjectLookups`).
 */
import { failAt, type DomainError } from './errors.js';
import type { ConstraintBody as Constraint } from '../schemas/index.js';

/** A tag type (Unleash's `/api/admin/tag-types`): what tags of that type are for. */
export interface TagType {
  name: string;
  description: string;
  icon: string | null;
  color: string | null;
}

export interface LegalValue {
  value: string;
  description?: string | undefined;
}

/** A context field as Unleash 6.10's `contextFieldSchema` shows it (without the usage counts). */
export interface ContextField {
  name: string;
  description: string | null;
  stickiness: boolean;
  sortOrder: number;
  legalValues: LegalValue[];
  createdAt: string | null;
}

/** One parameter of a strategy definition (Unleash's `strategyParameter`). */
export interface StrategyParameter {
  name: string;
  type: string;
  description: string;
  required: boolean;
}

/** A strategy definition as Unleash 6.10's `strategySchema` shows it. */
export interface StrategyDefinition {
  name: string;
  title: string | null;
  displayName: string | null;
  description: string | null;
  /** False for the built-in ones: they cannot be changed or deleted, only deprecated and reactivated. */
  editable: boolean;
  deprecated: boolean;
  parameters: StrategyParameter[];
}

/** The context fields every service has from the start (Unleash 6.10's migrations); they can be changed and deleted. */
export const BUILT_IN_CONTEXT_FIELDS: readonly ContextField[] = Object.freeze([
  { name: 'environment', description: 'Allows you to constrain on application environment', stickiness: false, sortOrder: 0, legalValues: [], createdAt: null },
  { name: 'userId', description: 'Allows you to constrain on userId', stickiness: false, sortOrder: 1, legalValues: [], createdAt: null },
  { name: 'appName', description: 'Allows you to constrain on application name', stickiness: false, sortOrder: 2, legalValues: [], createdAt: null },
  { name: 'currentTime', description: 'Allows you to constrain on date values', stickiness: false, sortOrder: 3, legalValues: [], createdAt: null },
  { name: 'sessionId', description: 'Allows you to constrain on sessionId', stickiness: true, sortOrder: 4, legalValues: [], createdAt: null },
]);

const param = (name: string, type: string, description: string, required: boolean): StrategyParameter => ({ name, type, description, required });
const builtIn = (name: string, displayName: string, description: string, deprecated: boolean, parameters: StrategyParameter[]): StrategyDefinition =>
  ({ name, title: null, displayName, description, editable: false, deprecated, parameters });

/** The strategies flagpole evaluates itself, as Unleash 6.10 lists them (after its v5 migration). */
export const BUILT_IN_STRATEGIES: readonly StrategyDefinition[] = Object.freeze([
  builtIn('flexibleRollout', 'Gradual rollout', 'Roll out to a percentage of your userbase, and ensure that the experience is the same for the user on each visit.', false, [
    param('rollout', 'percentage', '', false),
    param('stickiness', 'string', 'Used define stickiness. Possible values: default, userId, sessionId, random', true),
    param('groupId', 'string', 'Used to define a activation groups, which allows you to correlate across feature toggles.', true),
  ]),
  builtIn('default', 'Standard', 'This strategy turns on / off for your entire userbase. Prefer using "Gradual rollout" strategy (100%=on, 0%=off).', false, []),
  builtIn('userWithId', 'UserIDs', 'Enable the feature for a specific set of userIds. Prefer using "Gradual rollout" strategy with user id constraints.', true, [
    param('userIds', 'list', '', false),
  ]),
  builtIn('remoteAddress', 'IPs', 'Enable the feature for a specific set of IP addresses.', false, [param('IPs', 'list', 'List of IPs to enable the feature toggle for.', true)]),
  builtIn('applicationHostname', 'Hosts', 'Enable the feature for a specific set of hostnames.', false, [
    param('hostNames', 'list', 'List of hostnames to enable the feature toggle for.', false),
  ]),
]);

/**
 * Whether constraint values are all legal for `field`: a field without legal values accepts anything
 * (Unleash's `validateLegalValues`). Answers the first value that is not legal, or undefined.
 *
 * @example illegalValue({ legalValues: [{ value: 'eu' }] } as ContextField, ['eu', 'us']) // 'us'
 */
export function illegalValue(field: ContextField, values: readonly string[]): string | undefined {
  if (field.legalValues.length === 0) return undefined;
  const legal = new Set(field.legalValues.map((l) => l.value));
  return values.find((value) => !legal.has(value));
}

/**
 * The first constraint whose values a context field with legal values does not allow, as a 400 naming it
 * (Unleash's `validateLegalValues`), or null. `fieldOf` finds a field by name (undefined: no such field, no rule).
 *
 * @example illegalConstraint([{ contextName: 'region', operator: 'IN', values: ['mars'] }], fieldOf) // ValidationError naming constraints[0]
 */
export function illegalConstraint(constraints: readonly Constraint[], fieldOf: (name: string) => ContextField | undefined): DomainError | null {
  for (const [i, constraint] of constraints.entries()) {
    const field = fieldOf(constraint.contextName);
    if (!field) continue;
    const values = constraint.value !== undefined && !constraint.values?.length ? [constraint.value] : (constraint.values ?? []);
    const bad = illegalValue(field, values);
    if (bad !== undefined) {
      return failAt('ValidationError', `constraints.${i}.values`, `"${bad}" is not a legal value of context field "${field.name}" (legal: ${field.legalValues.slice(0, 10).map((l) => `"${l.value}"`).join(', ')}${field.legalValues.length > 10 ? ', ...' : ''})`, { label: `constraints[${i}]` });
    }
  }
  return null;
}
