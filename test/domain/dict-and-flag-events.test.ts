import { describe, expect, it } from 'vitest';
import { expectInheritsNothing } from '../helpers/expect.js';
import { dict, own, withKey, withoutKey } from '../../src/domain/dict.js';
import { decide } from '../../src/domain/decide.js';
import type { FlagEvent } from '../../src/domain/events.js';
import { applyFlagEvent } from '../../src/domain/flag-events.js';
import { evolve, type ProjectDraft } from '../../src/domain/project-state.js';
import { DEFAULT_LIMITS } from '../../src/limits.js';
import { AT, BY, given } from '../helpers/decider.js';
import { addStrategy } from '../helpers/project-commands.js';
import { flagCreated, strategy, strategyAdded } from '../helpers/project-events.js';

describe('maps that inherit nothing (dict.ts)', () => {
  it('given a JSON object with a "__proto__" key, when copied, then the key is an own entry and nothing is inherited', () => {
    const parsed = JSON.parse('{"__proto__": {"polluted": true}, "production": 1}') as Record<string, unknown>;
    const copy = dict(parsed);
    expectInheritsNothing(copy);
    expect(Object.keys(copy)).toEqual(['__proto__', 'production']);
    expect((copy as { polluted?: unknown }).polluted).toBeUndefined();
    expect(JSON.stringify(copy)).toBe('{"__proto__":{"polluted":true},"production":1}');
  });

  it('given a map, when a key is set or removed, then the source is untouched and the order of the others is kept', () => {
    const source = dict([['development', 1], ['production', 2], ['staging', 3]]);
    const added = withKey(source, '__proto__', 4);
    expect(Object.keys(added)).toEqual(['development', 'production', 'staging', '__proto__']);
    expect(own(added, '__proto__')).toBe(4);
    expectInheritsNothing(added);
    const replaced = withKey(source, 'development', 9);
    expect(Object.entries(replaced)).toEqual([['development', 9], ['production', 2], ['staging', 3]]);
    const removed = withoutKey(source, 'production');
    expect(Object.entries(removed)).toEqual([['development', 1], ['staging', 3]]);
    expect(Object.entries(source)).toEqual([['development', 1], ['production', 2], ['staging', 3]]);
  });

  it('given a plain object, when copied, then only its own keys are taken, not what its prototype lends', () => {
    const inherited = Object.assign(Object.create({ lent: 1 }) as Record<string, number>, { mine: 2 });
    expect(Object.keys(dict(inherited))).toEqual(['mine']);
    expect(own(dict(inherited), 'lent')).toBeUndefined();
  });
});

describe('the flag a decision builds, handed to evolve', () => {
  const facts = given([flagCreated('f'), strategyAdded('f', 'development', strategy('s1'))]);
  const decideOn = (draft: ProjectDraft) => {
    const decision = decide(draft, addStrategy('f', 'production'), { at: AT, by: BY, seq: facts.seq, limits: DEFAULT_LIMITS });
    if (!decision.ok) throw new Error(decision.error.message);
    return decision.events[0]!;
  };

  it('given a change accepted on a draft, when its event is evolved, then the draft holds the flag the decision built, equal to a replay of the event', () => {
    const draft = facts.draft();
    const event = decideOn(draft);
    const built = draft.takeBuilt(event as FlagEvent)!;
    expect(built).toEqual(applyFlagEvent(facts.flag('f'), event as FlagEvent));
    expect(draft.takeBuilt(event as FlagEvent)).toBeUndefined();
    draft.noteBuilt(event as FlagEvent, built);
    evolve(draft, event);
    expect(draft.getFlag('f')).toBe(built);
  });

  it('given no flag noted for an event (a replay), when it is evolved, then the flag is built from the event', () => {
    const event = decideOn(facts.draft());
    const replay = facts.draft();
    evolve(replay, event);
    expect(replay.getFlag('f')).toEqual(applyFlagEvent(facts.flag('f'), event as FlagEvent));
    expect(replay.getFlag('f')!.environments['production']!.strategies).toHaveLength(1);
  });
});
