import type { ProjectContext } from '../context.js';
import { BUILT_IN_STRATEGIES, illegalConstraint } from '../definitions.js';
import { failAt, type DomainError } from '../errors.js';
import type { Constraint } from '../types.js';

/**
 * Refuses (400) a strategy whose name no strategy definition has, and a constraint on a context field with
 * legal values that uses another value (Unleash 6.10's `validateStrategyType` and `validateLegalValues`),
 * checked against the committed service state. Without lookups (pure tests) the built-in strategies are known
 * and no field has legal values.
 *
 * @example checkDefinitions({ name: 'custom', constraints: [] }, context) // null once "custom" is defined
 */
export function checkDefinitions(strategy: { name: string; constraints?: readonly Constraint[] | undefined }, context: ProjectContext): DomainError | null {
  const lookups = context.lookups;
  const known = lookups ? lookups.strategyDefinition(strategy.name) : BUILT_IN_STRATEGIES.find((d) => d.name === strategy.name);
  if (!known) return failAt('ValidationError', 'name', `could not find strategy type with name "${strategy.name}"; define it with POST /api/admin/strategies first`);
  return lookups ? illegalConstraint(strategy.constraints ?? [], (name) => lookups.contextField(name)) : null;
}
