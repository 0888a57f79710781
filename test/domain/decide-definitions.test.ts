/**
 * Context fields and strategy definitions decided in the service mailbox, given / when / then: names unique,
 * built-in definitions only deprecated or reactivated, unchanged updates record nothing, and the project's
 * check of a strategy against the definitions and legal values.
 */
import { describe, expect, test } from 'vitest';
import { BUILT_IN_STRATEGIES, type ContextField, type StrategyDefinition } from '../../src/domain/definitions.js';
import { checkDefinitions } from '../../src/domain/decide/definition-refs.js';
import { DEFAULT_LIMITS } from '../../src/limits.js';
import { AT, givenService } from '../helpers/decider.js';

const field = (name: string, legal: string[] = []): ContextField =>
  ({ name, description: null, stickiness: false, sortOrder: 0, legalValues: legal.map((value) => ({ value })), createdAt: AT });
const custom = (name: string, deprecated = false): StrategyDefinition =>
  ({ name, title: null, displayName: null, description: null, editable: true, deprecated, parameters: [] });
const DEFAULT = BUILT_IN_STRATEGIES.find((d) => d.name === 'default')!;

describe('context fields', () => {
  test('create records the field with its creation time; a used name is refused', () => {
    givenService([]).when({ type: 'context-field.create', field: { ...field('region'), createdAt: null } })
      .then([{ type: 'context-field.created', field: field('region') }]);
    givenService([{ type: 'context-field.created', field: field('region') }]).when({ type: 'context-field.create', field: field('region') })
      .then({ error: 'NameExistsError', message: /region/ });
  });

  test('update keeps createdAt and, when absent, sortOrder; an unchanged one records nothing; unknown: 404', () => {
    const given = givenService([{ type: 'context-field.created', field: { ...field('region'), sortOrder: 5 } }]);
    given.when({ type: 'context-field.update', field: { name: 'region', description: 'd', stickiness: false, legalValues: [] } })
      .then([{ type: 'context-field.updated', field: { ...field('region'), sortOrder: 5, description: 'd' }, before: { ...field('region'), sortOrder: 5 } }]);
    givenService([{ type: 'context-field.created', field: field('region') }])
      .when({ type: 'context-field.update', field: { name: 'region', description: null, stickiness: false, legalValues: [] } }).then([]);
    givenService([]).when({ type: 'context-field.update', field: { name: 'nope', description: null, stickiness: false, legalValues: [] } }).then({ error: 'NotFoundError' });
    givenService([]).when({ type: 'context-field.delete', name: 'nope' }).then({ error: 'NotFoundError' });
  });
});

describe('strategy definitions', () => {
  const builtIn = { type: 'strategy-definition.created' as const, definition: DEFAULT };

  test('create; a used name is refused, built-in ones included', () => {
    givenService([]).when({ type: 'strategy-definition.create', definition: custom('tenant') }).then([{ type: 'strategy-definition.created', definition: custom('tenant') }]);
    givenService([builtIn]).when({ type: 'strategy-definition.create', definition: custom('default') }).then({ error: 'NameExistsError' });
  });

  test('a built-in definition is deprecated and reactivated but not updated or deleted', () => {
    givenService([builtIn]).when({ type: 'strategy-definition.deprecate', name: 'default', deprecated: true })
      .then([{ type: 'strategy-definition.updated', definition: { ...DEFAULT, deprecated: true }, before: DEFAULT }]);
    givenService([builtIn]).when({ type: 'strategy-definition.deprecate', name: 'default', deprecated: false }).then([]);
    givenService([builtIn]).when({ type: 'strategy-definition.update', definition: custom('default') }).then({ error: 'ValidationError', message: /built in/ });
    givenService([builtIn]).when({ type: 'strategy-definition.delete', name: 'default' }).then({ error: 'ValidationError', message: /built in/ });
  });

  test('an update keeps the deprecation', () => {
    givenService([{ type: 'strategy-definition.created', definition: custom('tenant', true) }])
      .when({ type: 'strategy-definition.update', definition: { ...custom('tenant'), description: 'd' } })
      .then([{ type: 'strategy-definition.updated', definition: { ...custom('tenant', true), description: 'd' }, before: custom('tenant', true) }]);
  });
});

describe('a strategy checked against the definitions (project mailbox)', () => {
  const context = (definitions: StrategyDefinition[], fields: ContextField[]) => ({
    at: AT, by: 'test', seq: 1, limits: DEFAULT_LIMITS,
    lookups: { segment: () => undefined, strategyDefinition: (n: string) => definitions.find((d) => d.name === n), contextField: (n: string) => fields.find((f) => f.name === n) },
  });

  test('an undefined name is refused naming it; a defined one passes', () => {
    expect(checkDefinitions({ name: 'tenant' }, context([DEFAULT], []))?.message).toMatch(/"tenant"/);
    expect(checkDefinitions({ name: 'tenant' }, context([DEFAULT, custom('tenant')], []))).toBeNull();
    // Without lookups (pure decisions), the built-in ones are known.
    expect(checkDefinitions({ name: 'flexibleRollout' }, { at: AT, by: 'test', seq: 1, limits: DEFAULT_LIMITS })).toBeNull();
  });

  test('legal values: list operators by values, single-value ones by value; no legal values: anything', () => {
    const ctx = context([DEFAULT], [field('region', ['eu', 'us']), field('free')]);
    const c = (contextName: string, extra: Record<string, unknown>) =>
      ({ name: 'default', constraints: [{ contextName, operator: 'IN', caseInsensitive: false, inverted: false, ...extra }] }) as Parameters<typeof checkDefinitions>[0];
    expect(checkDefinitions(c('region', { values: ['eu'] }), ctx)).toBeNull();
    expect(checkDefinitions(c('region', { values: ['eu', 'mars'] }), ctx)?.message).toMatch(/"mars" is not a legal value/);
    expect(checkDefinitions(c('region', { operator: 'NUM_EQ', value: '5' }), ctx)?.message).toMatch(/"5"/);
    expect(checkDefinitions(c('free', { values: ['anything'] }), ctx)).toBeNull();
    expect(checkDefinitions(c('unknown-field', { values: ['anything'] }), ctx)).toBeNull();
  });
});
