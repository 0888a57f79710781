/**
 * The `flagBytes` limit (`LIMIT_FLAG_BYTES`): a change is refused when the flag it builds is larger than the
 * limit as stored (the UTF-8 bytes of its JSON), and accepted exactly at it; a refused change leaves the
 * flag as it was. Every kind of change that can make a flag larger, on a flag as created and on one changed since.
 */
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import type { ProjectCommand } from '../../src/domain/commands.js';
import { decide } from '../../src/domain/decide.js';
import { evolve } from '../../src/domain/project-state.js';
import { DEFAULT_LIMITS } from '../../src/limits.js';
import { VariantsSchema } from '../../src/schemas/variant.schema.js';
import { AT, BY, given } from '../helpers/decider.js';
import { addStrategy } from '../helpers/project-commands.js';
import { flagCreated, strategy, strategyAdded } from '../helpers/project-events.js';

/** A flag with text of several UTF-8 widths (`é` is 2 bytes, `€` 3), so bytes and characters differ. */
const facts = given([
  flagCreated('f', ['development', 'production'], { description: 'é'.repeat(100) }),
  strategyAdded('f', 'development', strategy('s1', { name: 'userWithId', parameters: { userIds: '€'.repeat(200) } })),
]);

/** Decides `command` on a fresh draft of the facts within `flagBytes`, then evolves what it accepted. */
function decideWithin(command: ProjectCommand, flagBytes: number, earlier: ProjectCommand[] = []) {
  const draft = facts.draft();
  let seq = facts.seq;
  for (const before of earlier) {
    const accepted = decide(draft, before, { at: AT, by: BY, seq: ++seq, limits: DEFAULT_LIMITS });
    if (!accepted.ok) throw new Error(`an earlier change was refused: ${accepted.error.message}`);
    for (const event of accepted.events) evolve(draft, event);
  }
  const before = draft.getFlag('f');
  const decision = decide(draft, command, { at: AT, by: BY, seq: seq + 1, limits: { ...DEFAULT_LIMITS, flagBytes } });
  if (decision.ok) for (const event of decision.events) evolve(draft, event);
  return { decision, before, flag: draft.getFlag('f')! };
}

const changes: [string, ProjectCommand][] = [
  ['a strategy is added', addStrategy('f', 'production', { name: 'userWithId', parameters: { userIds: 'ñ'.repeat(300) } })],
  ['a strategy is updated', { type: 'strategy.update', feature: 'f', environment: 'development', strategyId: 's1', strategy: { name: 'userWithId', parameters: { userIds: '€'.repeat(900) } } }],
  ['strategies are copied', { type: 'strategy.copy', feature: 'f', environment: 'production', fromEnvironment: 'development' }],
  ['variants are set', { type: 'variants.set', feature: 'f', variants: v.parse(VariantsSchema, [{ name: 'v', weightType: 'variable', weight: 1000, payload: { type: 'string', value: 'ß'.repeat(400) } }]) }],
  ['a tag is added', { type: 'tags.change', features: ['f'], added: [{ type: 'simple', value: 'a-tag-of-some-length' }], removed: [] }],
];

/** The changes above and one more, each made after {@link EARLIER}. */
const chained: [string, ProjectCommand][] = [
  ...changes,
  ['strategies are sorted', { type: 'strategy.set-sort-order', feature: 'f', environment: 'development', order: [{ id: 's1', sortOrder: 1234567 }] }],
];

/** Two changes before the one measured. */
const EARLIER: ProjectCommand[] = [
  addStrategy('f', 'production', { name: 'default' }),
  addStrategy('f', 'production', { name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'default', groupId: 'f' } }),
];

describe('the flag size limit', () => {
  it.each(changes)('given a flag, when %s, then it is accepted up to the limit in bytes and refused one byte past it, changing nothing', (_, command) => {
    expectExactLimit(command, []);
  });

  it.each(chained)('given a flag changed twice before, when %s, then the limit is as exact', (_, command) => {
    expectExactLimit(command, EARLIER);
  });
});

/** Accepted at the limit in bytes, refused one byte past it (naming the size), changing nothing. */
function expectExactLimit(command: ProjectCommand, earlier: ProjectCommand[]): void {
  {
    const unlimited = decideWithin(command, Number.MAX_SAFE_INTEGER, earlier);
    expect(unlimited.decision.ok).toBe(true);
    const json = JSON.stringify(unlimited.flag);
    const bytes = Buffer.byteLength(json);
    expect(bytes).toBeGreaterThan(json.length);

    expect(decideWithin(command, bytes, earlier).decision.ok).toBe(true);
    const refused = decideWithin(command, bytes - 1, earlier);
    expect(refused.decision).toMatchObject({ ok: false, error: { kind: 'ExceedsLimitError' } });
    if (!refused.decision.ok) expect(refused.decision.error.message).toMatch(new RegExp(`\\(${bytes} bytes after this change\\).*LIMIT_FLAG_BYTES`));
    expect(refused.flag).toBe(refused.before);
    if (earlier.length === 0) expect(refused.flag).toBe(facts.flag('f'));
  }
}
