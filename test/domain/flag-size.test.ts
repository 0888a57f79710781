import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { expectInheritsNothing } from '../helpers/expect.js';
import { dict } from '../../src/domain/dict.js';
import { applyFlagEvent, withDicts } from '../../src/domain/flag-events.js';
import { flagSize } from '../../src/domain/flag-size.js';
import type { Flag, Strategy } from '../../src/domain/types.js';
import { StrategyRecordSchema } from '../../src/schemas/strategy.schema.js';
import { VariantsSchema } from '../../src/schemas/variant.schema.js';
import { strategy } from '../helpers/project-events.js';

/*
 * The `flagBytes` limit counts a flag's JSON text without building it: what it counts must be what
 * `JSON.stringify` writes, for every shape a stored strategy or variant list takes.
 */

const flag: Flag = {
  name: 'f', description: 'a flag', type: 'release', stale: false, impressionData: false, createdAt: '2026-01-01T00:00:00.000Z',
  lastSeenAt: null, archived: false, archivedAt: null, variants: [], version: 1,
  environments: dict([
    ['development', { enabled: false, strategies: [strategy('first')] }],
    ['production', { enabled: false, strategies: [] }],
  ]),
};

/** The flag after adding `added` to `environment`, as deciding and replaying build it (parameters as a map that inherits nothing). */
const withStrategy = (base: Flag, environment: string, added: Strategy): Flag =>
  applyFlagEvent(base, { type: 'strategy.added', name: base.name, version: base.version + 1, environment, strategy: added, enabled: false })!;

/** Strategy records of every shape the schema stores: all optional parts absent, present, empty and large. */
const records: Strategy[] = [
  v.parse(StrategyRecordSchema, { id: 'a', name: 'default', sortOrder: 0 }),
  v.parse(StrategyRecordSchema, {
    id: '7f3c0c5e-0000-4000-8000-000000000001', name: 'flexibleRollout', title: 'Half of them', disabled: true, sortOrder: -12,
    parameters: { rollout: 50, stickiness: 'userId', groupId: 'g', flag: true },
    constraints: [
      { contextName: 'userId', operator: 'IN', values: ['a', 'b', ''], caseInsensitive: true },
      { contextName: 'appName', operator: 'STR_CONTAINS', values: ['web'], inverted: true },
      { contextName: 'currentTime', operator: 'DATE_AFTER', value: '2026-01-01T00:00:00.000Z' },
      { contextName: 'version', operator: 'SEMVER_GT', value: '1.2.3' },
      { contextName: 'score', operator: 'NUM_GTE', value: '3.5' },
    ],
    variants: [
      { name: 'blue', weight: 500, weightType: 'variable', stickiness: 'default', payload: { type: 'number', value: '42' } },
      { name: 'red', weight: 500, weightType: 'variable' },
    ],
    segments: [1, 22, 333],
  }),
  v.parse(StrategyRecordSchema, { id: 'big', name: 'userWithId', sortOrder: 3, parameters: { userIds: 'u'.repeat(5000) } }),
  v.parse(StrategyRecordSchema, {
    id: 'many', name: 'default', sortOrder: 1,
    constraints: [{ contextName: 'userId', operator: 'NOT_IN', values: Array.from({ length: 300 }, (_, i) => `user-${i}`) }],
  }),
];

describe('flagSize', () => {
  it.each(records.map((r) => [r.id, r] as const))('given strategy %s, when added beside another, then the flag grows by its JSON and a comma', (_id, added) => {
    const after = withStrategy(flag, 'development', added);
    const stored = after.environments['development']!.strategies.find((s) => s.id === added.id)!;
    expectInheritsNothing(stored.parameters);
    expect(flagSize(after) - flagSize(flag)).toBe(JSON.stringify(stored).length + 1);
    // Counted again (a large one is remembered): the same size.
    expect(flagSize(after) - flagSize(flag)).toBe(JSON.stringify(stored).length + 1);
  });

  it('given an empty environment, when a strategy is its first, then the flag grows by that strategy\'s JSON alone', () => {
    const added = records[1]!;
    const after = withStrategy(flag, 'production', added);
    expect(flagSize(after) - flagSize(flag)).toBe(JSON.stringify(after.environments['production']!.strategies[0]).length);
  });

  it('given a flag, when its strategies, variants and environments grow, then its size follows its JSON text within 5%', () => {
    let grown = flag;
    for (const [i, r] of records.entries()) grown = withStrategy(grown, i % 2 ? 'production' : 'development', { ...r, id: `${r.id}-${i}` });
    const variants = v.parse(VariantsSchema, [
      { name: 'on', weight: 1000, weightType: 'variable', payload: { type: 'string', value: 'p'.repeat(3000) } },
    ]);
    grown = applyFlagEvent(grown, { type: 'variants.updated', name: 'f', version: 9, variants, before: [] })!;
    const text = JSON.stringify(grown).length;
    expect(flagSize(grown)).toBeGreaterThan(text * 0.95);
    expect(flagSize(grown)).toBeLessThan(text * 1.05);
    // A toggle keeps the strategy lists: the size stays.
    const toggled = applyFlagEvent(grown, { type: 'flag.disabled', name: 'f', version: 10, environment: 'production' })!;
    expect(flagSize(toggled)).toBe(flagSize(grown));
  });

  /** The same flag with fresh records (nothing of it remembered): counted whole. */
  const countedAfresh = (f: Flag): number => flagSize(withDicts(JSON.parse(JSON.stringify(f)) as Flag));

  it('given the flag a change was made to, when one strategy is added at a time (sorted among the others), then each step grows by its JSON and a comma', () => {
    let grown = flag;
    for (let i = 0; i < 25; i += 1) {
      // Sort orders that put the new one first, last and in between.
      const added = strategy(`s-${i}`, { name: 'flexibleRollout', parameters: { rollout: String(i * 4), groupId: `group-${i}` }, sortOrder: (i * 7) % 5 - 2 });
      const after = withStrategy(grown, 'development', added);
      const stored = after.environments['development']!.strategies.find((s) => s.id === added.id)!;
      expect(flagSize(after, grown) - flagSize(grown)).toBe(JSON.stringify(stored).length + 1);
      grown = after;
    }
    expect(flagSize(grown)).toBe(countedAfresh(grown));
  });

  it('given the flag a change was made to, when a change is not one strategy added, then the list is counted again', () => {
    let grown = flag;
    for (let i = 0; i < 12; i += 1) grown = withStrategy(grown, 'development', strategy(`s-${i}`, { parameters: { groupId: `g-${i}` }, sortOrder: i }));
    flagSize(grown);
    // Replaced and moved to the front: same length, other order.
    const updated = { ...grown.environments['development']!.strategies[5]!, sortOrder: -1, parameters: { groupId: 'much longer than before' } };
    const afterUpdate = applyFlagEvent(grown, { type: 'strategy.updated', name: 'f', version: 20, environment: 'development', strategy: updated, before: grown.environments['development']!.strategies[5]!, enabled: false })!;
    expect(flagSize(afterUpdate, grown)).toBe(countedAfresh(afterUpdate));
    // The last one replaced in place (same sort order), larger: one difference, but not one added.
    const last = grown.environments['development']!.strategies.at(-1)!;
    const inPlace = { ...last, parameters: { groupId: 'x'.repeat(300) } };
    const afterInPlace = applyFlagEvent(grown, { type: 'strategy.updated', name: 'f', version: 20, environment: 'development', strategy: inPlace, before: last, enabled: false })!;
    expect(afterInPlace.environments['development']!.strategies.at(-1)!.id).toBe(last.id);
    expect(flagSize(afterInPlace, grown)).toBe(countedAfresh(afterInPlace));
    // One removed: shorter.
    const afterDelete = applyFlagEvent(grown, { type: 'strategy.deleted', name: 'f', version: 21, environment: 'development', before: grown.environments['development']!.strategies[3]!, enabled: false })!;
    expect(flagSize(afterDelete, grown)).toBe(countedAfresh(afterDelete));
    // Added to a list that also had one replaced: two differences.
    const replacedAndAdded = applyFlagEvent(afterUpdate, { type: 'strategy.added', name: 'f', version: 22, environment: 'development', strategy: strategy('late', { sortOrder: 99 }), enabled: false })!;
    expect(flagSize(replacedAndAdded, grown)).toBe(countedAfresh(replacedAndAdded));
  });
});
