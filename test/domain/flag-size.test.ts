/**
 * The `flagBytes` limit (`LIMIT_FLAG_BYTES`): a change is refused when the flag it builds is larger than the
 * limit as stored (the UTF-8 bytes of its JSON), and accepted exactly at it; a refused change leaves the
 * flag as it was. Every kind of change that can make a flag larger.
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
function decideWithin(command: ProjectCommand, flagBytes: number) {
  const draft = facts.draft();
  const decision = decide(draft, command, { at: AT, by: BY, seq: facts.seq, limits: { ...DEFAULT_LIMITS, flagBytes } });
  if (decision.ok) for (const event of decision.events) evolve(draft, event);
  return { decision, flag: draft.getFlag('f')! };
}

const changes: [string, ProjectCommand][] = [
  ['a strategy is added', addStrategy('f', 'production', { name: 'userWithId', parameters: { userIds: 'ñ'.repeat(300) } })],
  ['a strategy is updated', { type: 'strategy.update', feature: 'f', environment: 'development', strategyId: 's1', strategy: { name: 'userWithId', parameters: { userIds: '€'.repeat(900) } } }],
  ['strategies are copied', { type: 'strategy.copy', feature: 'f', environment: 'production', fromEnvironment: 'development' }],
  ['variants are set', { type: 'variants.set', feature: 'f', variants: v.parse(VariantsSchema, [{ name: 'v', weightType: 'variable', weight: 1000, payload: { type: 'string', value: 'ß'.repeat(400) } }]) }],
  ['a tag is added', { type: 'tags.change', features: ['f'], added: [{ type: 'simple', value: 'a-tag-of-some-length' }], removed: [] }],
];

describe('the flag size limit', () => {
  it.each(changes)('given a flag, when %s, then it is accepted up to the limit in bytes and refused one byte past it, changing nothing', (_, command) => {
    const unlimited = decideWithin(command, Number.MAX_SAFE_INTEGER);
    expect(unlimited.decision.ok).toBe(true);
    const json = JSON.stringify(unlimited.flag);
    const bytes = Buffer.byteLength(json);
    expect(bytes).toBeGreaterThan(json.length);

    expect(decideWithin(command, bytes).decision.ok).toBe(true);
    const refused = decideWithin(command, bytes - 1);
    expect(refused.decision).toMatchObject({ ok: false, error: { kind: 'ExceedsLimitError' } });
    if (!refused.decision.ok) expect(refused.decision.error.message).toMatch(new RegExp(`\\(${bytes} bytes after this change\\).*LIMIT_FLAG_BYTES`));
    expect(refused.flag).toBe(facts.flag('f'));
  });
});
