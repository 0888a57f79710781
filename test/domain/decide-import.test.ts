/**
 * The import decider (src/domain/decide/import.ts), given / when / then: one record of events or nothing, a
 * dry run records nothing, replay gives the flag the decision built, and the pending definitions mark.
 */
import { describe, expect, test } from 'vitest';
import type { ImportedFlag, ImportPlan } from '../../src/domain/import-plan.js';
import { evolve } from '../../src/domain/project-state.js';
import { AT, flagAfter, given } from '../helpers/decider.js';
import { flagCreated, rollout, strategyAdded } from '../helpers/project-events.js';

const imported = (name: string, fields: Partial<ImportedFlag> = {}): ImportedFlag => ({
  name, description: 'imported', type: 'release', stale: false, impressionData: false, strategies: [{ name: 'default' }],
  enabled: true, variants: null, tags: [], dependencies: [], ...fields,
});
const plan = (flags: ImportedFlag[], more: Partial<ImportPlan> = {}): ImportPlan => ({ environment: 'development', flags, newContextFields: [], newTagTypes: [], ...more });

describe('flags.import', () => {
  test('a new flag: one flag.created holding it whole, enabled in the environment, other environments empty', () => {
    const then = given([]).when({ type: 'flags.import', plan: plan([imported('a')]), dryRun: false });
    then.then([{ type: 'flag.created', flag: expect.objectContaining({ name: 'a', description: 'imported', createdAt: AT }) as never }]);
    const flag = flagAfter(then, 'a');
    expect(flag.environments['development']).toMatchObject({ enabled: true, strategies: [{ name: 'default', sortOrder: 0 }] });
    expect(flag.environments['production']).toEqual({ enabled: false, strategies: [] });
    expect(then.decision.ok && then.decision.reply).toMatchObject({ created: ['a'], updated: [], skipped: [], errors: [] });
  });

  test('an existing flag: one flag.imported with the flag it replaced; replaying it gives the flag the decision built', () => {
    const facts = [flagCreated('a'), strategyAdded('a', 'production', rollout('s1', 'a'))];
    const then = given(facts).when({ type: 'flags.import', plan: plan([imported('a', { tags: [{ type: 'simple', value: 'x1' }] })]), dryRun: false });
    expect(then.decision.ok && then.decision.events.map((e) => e.type)).toEqual(['flag.imported']);
    const decided = flagAfter(then, 'a');
    expect(decided.environments['production']!.strategies.map((s) => s.id)).toEqual(['s1']);
    expect(decided.tags).toEqual([{ type: 'simple', value: 'x1' }]);
    // The recorded event, read back as JSON and evolved onto the state before it, is the same flag.
    const replay = given(facts).draft();
    for (const event of then.decision.ok ? then.decision.events : []) evolve(replay, JSON.parse(JSON.stringify(event)));
    expect(JSON.parse(JSON.stringify(replay.getFlag('a')))).toEqual(JSON.parse(JSON.stringify(decided)));
  });

  test('a dry run records nothing and reports; an import with an error is refused whole', () => {
    const bad = plan([imported('a'), imported('b', { strategies: [{ name: 'nowhere' }] })]);
    given([]).when({ type: 'flags.import', plan: bad, dryRun: true }).then([]).thenReply({
      created: ['a', 'b'], updated: [], skipped: [], warnings: [],
      errors: [{ message: expect.stringMatching(/custom strategy/) as unknown as string, affectedItems: ['nowhere'] }],
    });
    given([]).when({ type: 'flags.import', plan: bad, dryRun: false }).then({ error: 'ValidationError', message: /nothing was changed/ });
  });

  test('definitions to create mark the project in the same record; import.settle clears the mark', () => {
    const tagType = { name: 'team', description: '', icon: null, color: null };
    const then = given([]).when(
      { type: 'flags.import', plan: plan([imported('a', { tags: [{ type: 'team', value: 'core' }] })], { newTagTypes: [tagType] }), dryRun: false },
      { type: 'import.settle' },
    );
    const events = then.decisions.flatMap((d) => (d.ok ? d.events : []));
    expect(events.map((e) => e.type)).toEqual(['project.updated', 'flag.created', 'project.updated']);
    expect(events[0]).toMatchObject({ meta: { pendingImport: { tagTypes: [tagType], contextFields: [] } } });
    expect(then.draft.meta.pendingImport).toBeUndefined();
    given([]).when({ type: 'import.settle' }).then([]);
  });
});
