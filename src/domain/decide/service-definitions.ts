/**
 * Decisions on context fields and strategy definitions, in the service mailbox: names unique, the limits, the
 * built-in strategies kept as they are (Unleash 6.10: "Cannot edit strategy ..."), only deprecated or reactivated.
 */
import { LIMIT_VARIABLES, SHAPE_LIMITS, overLimit } from '../../limits.js';
import type { CommandContext } from '../context.js';
import type { ContextField, StrategyDefinition } from '../definitions.js';
import { accept, fail, refuse, type Decision } from '../errors.js';
import type { ServiceCommand } from '../service-commands.js';
import type { ServiceEvent } from '../service-events.js';
import type { ServiceState } from '../service-state.js';

type Of<T extends ServiceCommand['type']> = Extract<ServiceCommand, { type: T }>;

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** A field with its keys in one order, so that an unchanged field compares equal (and reads the same in dumps). */
const contextField = (f: ContextField): ContextField => ({
  name: f.name, description: f.description, stickiness: f.stickiness, sortOrder: f.sortOrder,
  legalValues: f.legalValues.map((l) => (l.description ? { value: l.value, description: l.description } : { value: l.value })), createdAt: f.createdAt,
});

/** A definition with its keys in one order (see {@link contextField}). */
const definitionOf = (d: StrategyDefinition): StrategyDefinition => ({
  name: d.name, title: d.title, displayName: d.displayName, description: d.description, editable: d.editable, deprecated: d.deprecated,
  parameters: d.parameters.map((p) => ({ name: p.name, type: p.type, description: p.description, required: p.required })),
});

/** Creates a context field with a new name, within the context fields limit. */
export function decideCreateContextField(draft: ServiceState, { field }: Of<'context-field.create'>, context: CommandContext): Decision<ServiceEvent, ContextField> {
  if (draft.contextFields.some((f) => f.name === field.name)) return refuse(fail('NameExistsError', `A context field named "${field.name}" already exists`));
  const limit = context.limits.contextFields;
  if (draft.contextFields.length >= limit) return refuse(fail('ExceedsLimitError', overLimit('The number of context fields', limit, LIMIT_VARIABLES.contextFields)));
  const created = contextField({ ...field, createdAt: context.at });
  return accept([{ type: 'context-field.created', field: created }], created);
}

/** Replaces a field's description, stickiness, sort order (when given) and legal values. */
export function decideUpdateContextField(draft: ServiceState, { field }: Of<'context-field.update'>): Decision<ServiceEvent, ContextField> {
  const before = draft.contextFields.find((f) => f.name === field.name);
  if (!before) return refuse(fail('NotFoundError', `Could not find context field with name: ${field.name}`));
  // Unleash keeps the sort order when the body has none.
  const after = contextField({ ...field, sortOrder: field.sortOrder ?? before.sortOrder, createdAt: before.createdAt });
  if (same(before, after)) return accept([], before);
  return accept([{ type: 'context-field.updated', field: after, before }], after);
}

/** Adds or replaces one legal value, within the legal values a field may hold (`SHAPE_LIMITS.legalValues`). */
export function decideSetLegalValue(draft: ServiceState, { name, legalValue }: Of<'context-field.legal-value.set'>): Decision<ServiceEvent, ContextField> {
  const before = draft.contextFields.find((f) => f.name === name);
  if (!before) return refuse(fail('NotFoundError', `Context field with name ${name} was not found`));
  const at = before.legalValues.findIndex((l) => l.value === legalValue.value);
  if (at === -1 && before.legalValues.length >= SHAPE_LIMITS.legalValues) {
    return refuse(fail('ExceedsLimitError', `Context field "${name}" already has ${SHAPE_LIMITS.legalValues} legal values, the most one may hold`));
  }
  const legalValues = at === -1 ? [...before.legalValues, legalValue] : before.legalValues.map((l, i) => (i === at ? legalValue : l));
  const after = contextField({ ...before, legalValues });
  if (same(before, after)) return accept([], before);
  return accept([{ type: 'context-field.updated', field: after, before }], after);
}

/** Removes one legal value; a value the field lacks changes nothing (as Unleash). */
export function decideDeleteLegalValue(draft: ServiceState, { name, value }: Of<'context-field.legal-value.delete'>): Decision<ServiceEvent, ContextField> {
  const before = draft.contextFields.find((f) => f.name === name);
  if (!before) return refuse(fail('NotFoundError', `Could not find context field with name ${name}`));
  if (!before.legalValues.some((l) => l.value === value)) return accept([], before);
  const after = contextField({ ...before, legalValues: before.legalValues.filter((l) => l.value !== value) });
  return accept([{ type: 'context-field.updated', field: after, before }], after);
}

/** Deletes a context field; 404 when there is none of that name. */
export function decideDeleteContextField(draft: ServiceState, { name }: Of<'context-field.delete'>): Decision<ServiceEvent, ContextField> {
  const field = draft.contextFields.find((f) => f.name === name);
  if (!field) return refuse(fail('NotFoundError', `Could not find context field with name ${name}`));
  return accept([{ type: 'context-field.deleted', field }], field);
}

/** Creates a custom strategy definition with a new name, within its limit. */
export function decideCreateStrategyDefinition(draft: ServiceState, { definition }: Of<'strategy-definition.create'>, context: CommandContext): Decision<ServiceEvent, StrategyDefinition> {
  if (draft.strategyDefinitions.some((d) => d.name === definition.name)) return refuse(fail('NameExistsError', `Strategy with name ${definition.name} already exist!`));
  const limit = context.limits.strategyDefinitions;
  const custom = draft.strategyDefinitions.filter((d) => d.editable).length;
  if (custom >= limit) return refuse(fail('ExceedsLimitError', overLimit('The number of custom strategy definitions', limit, LIMIT_VARIABLES.strategyDefinitions)));
  const created = definitionOf(definition);
  return accept([{ type: 'strategy-definition.created', definition: created }], created);
}

function editable(draft: ServiceState, name: string, verb: string): StrategyDefinition | ReturnType<typeof fail> {
  const found = draft.strategyDefinitions.find((d) => d.name === name);
  if (!found) return fail('NotFoundError', `Could not find strategy with name ${name}`);
  if (!found.editable) return fail('ValidationError', `Cannot ${verb} strategy ${name}: it is built in (it can only be deprecated or reactivated)`);
  return found;
}

/** Replaces a custom strategy definition; built-in ones are not editable. */
export function decideUpdateStrategyDefinition(draft: ServiceState, { definition }: Of<'strategy-definition.update'>): Decision<ServiceEvent, StrategyDefinition> {
  const before = editable(draft, definition.name, 'edit');
  if (!('editable' in before)) return refuse(before);
  // Deprecation has its own routes: an update keeps it.
  const after = definitionOf({ ...definition, deprecated: before.deprecated });
  if (same(before, after)) return accept([], before);
  return accept([{ type: 'strategy-definition.updated', definition: after, before }], after);
}

/** Deprecates or un-deprecates a strategy definition. */
export function decideDeprecateStrategyDefinition(draft: ServiceState, { name, deprecated }: Of<'strategy-definition.deprecate'>): Decision<ServiceEvent, StrategyDefinition> {
  const before = draft.strategyDefinitions.find((d) => d.name === name);
  if (!before) return refuse(fail('NotFoundError', `Could not find strategy with name ${name}`));
  if (before.deprecated === deprecated) return accept([], before);
  const after = { ...before, deprecated };
  return accept([{ type: 'strategy-definition.updated', definition: after, before }], after);
}

/** Deletes a custom strategy definition; built-in ones are kept. */
export function decideDeleteStrategyDefinition(draft: ServiceState, { name }: Of<'strategy-definition.delete'>): Decision<ServiceEvent, StrategyDefinition> {
  const found = editable(draft, name, 'delete');
  if (!('editable' in found)) return refuse(found);
  return accept([{ type: 'strategy-definition.deleted', definition: found }], found);
}
