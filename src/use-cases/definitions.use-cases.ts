/**
 * Writes of context fields and strategy definitions: one service command each, decided in the service mailbox
 * (src/domain/decide/service-definitions.ts). Flags that use a field or a definition are not changed by these writes
 * (docs/api-decisions.md "Context fields and strategy definitions").
 */
import type { Registry } from '../actors/registry.js';
import { principalLabel, type Principal } from '../auth/permissions.js';
import type { ContextField, LegalValue, StrategyDefinition } from '../domain/definitions.js';
import type { ServiceCommand } from '../domain/service-commands.js';
import { fromDecision, type Result } from '../domain/result.js';

type Command<T extends ServiceCommand['type']> = Extract<ServiceCommand, { type: T }>;

/** Creates a context field (201); its name must be free (409) and within `LIMIT_CONTEXT_FIELDS`. */
export async function createContextField(registry: Registry, field: Command<'context-field.create'>['field'], principal: Principal): Promise<Result<ContextField>> {
  return fromDecision(await registry.service.send({ type: 'context-field.create', field }, principalLabel(principal)));
}

/** Replaces a context field's description, stickiness, legal values and (when given) sort order; 404 when unknown. */
export async function updateContextField(registry: Registry, field: Command<'context-field.update'>['field'], principal: Principal): Promise<Result<ContextField>> {
  return fromDecision(await registry.service.send({ type: 'context-field.update', field }, principalLabel(principal)));
}

/** Adds a legal value to a context field, or replaces the one with the same value; 404 when the field is unknown. */
export async function setLegalValue(registry: Registry, name: string, legalValue: LegalValue, principal: Principal): Promise<Result<ContextField>> {
  return fromDecision(await registry.service.send({ type: 'context-field.legal-value.set', name, legalValue }, principalLabel(principal)));
}

/** Removes a legal value from a context field (one it lacks: nothing changes); 404 when the field is unknown. */
export async function deleteLegalValue(registry: Registry, name: string, value: string, principal: Principal): Promise<Result<ContextField>> {
  return fromDecision(await registry.service.send({ type: 'context-field.legal-value.delete', name, value }, principalLabel(principal)));
}

/** Deletes a context field; 404 when unknown. Constraints on it stay as they are (as Unleash). */
export async function deleteContextField(registry: Registry, name: string, principal: Principal): Promise<Result<ContextField>> {
  return fromDecision(await registry.service.send({ type: 'context-field.delete', name }, principalLabel(principal)));
}

/** Creates a custom strategy definition (201); its name must be free (409) and within `LIMIT_STRATEGY_DEFINITIONS`. */
export async function createStrategyDefinition(registry: Registry, definition: StrategyDefinition, principal: Principal): Promise<Result<StrategyDefinition>> {
  return fromDecision(await registry.service.send({ type: 'strategy-definition.create', definition }, principalLabel(principal)));
}

/** Replaces a custom strategy definition's title, description and parameters; 404 unknown, 400 built in. */
export async function updateStrategyDefinition(registry: Registry, definition: StrategyDefinition, principal: Principal): Promise<Result<StrategyDefinition>> {
  return fromDecision(await registry.service.send({ type: 'strategy-definition.update', definition }, principalLabel(principal)));
}

/** Deprecates (`deprecated: true`) or reactivates a strategy definition, built-in ones too; 404 when unknown. */
export async function deprecateStrategyDefinition(registry: Registry, name: string, deprecated: boolean, principal: Principal): Promise<Result<StrategyDefinition>> {
  return fromDecision(await registry.service.send({ type: 'strategy-definition.deprecate', name, deprecated }, principalLabel(principal)));
}

/** Deletes a custom strategy definition; 404 unknown, 400 built in. Flags keep the strategies that name it. */
export async function deleteStrategyDefinition(registry: Registry, name: string, principal: Principal): Promise<Result<StrategyDefinition>> {
  return fromDecision(await registry.service.send({ type: 'strategy-definition.delete', name }, principalLabel(principal)));
}
