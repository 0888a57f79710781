/**
 * The readable diff of each kind of history entry: given an event as the log records it, when its history
 * entry is described (`entriesOf`, then `changesOf`), then these lines.
 */
import { describe, expect, test } from 'vitest';
import { entriesOf } from '../../../src/actors/past/history.js';
import type { ProjectEvent } from '../../../src/domain/events.js';
import type { Flag, Variant } from '../../../src/domain/types.js';
import { changesOf } from '../../../src/queries/history/event-diff.js';
import { flagChanges } from '../../../src/queries/history/flag-diff.js';
import { AT, META, flagCreated, rollout, strategy } from '../../helpers/project-events.js';

/** The diff lines of `event`, as the history shows it. */
function given(event: ProjectEvent) {
  return {
    then(lines: string[]) {
      const entries = entriesOf('p', { seq: 7, at: AT, by: 'user:1', command: { type: 'flag.update' } as never, events: [event] });
      expect(entries.flatMap((entry) => changesOf(entry).map((change) => change.text))).toEqual(lines);
    },
  };
}

const flag = (flagCreated('checkout') as Extract<ProjectEvent, { type: 'flag.created' }>).flag;
const variant = (name: string, weight: number, extra: Partial<Variant> = {}): Variant =>
  ({ name, weight, weightType: 'variable', stickiness: 'default', overrides: [], ...extra });

describe('changesOf, one case per project event type', () => {
  test('project.created names the project, project.updated its settings', () => {
    given({ type: 'project.created', meta: { ...META, description: 'Shop' } }).then(['project: (none) → created "P"', 'description: "" → Shop', 'environments: +[development, production]']);
    given({ type: 'project.updated', before: META, meta: { ...META, name: 'Shop', mode: 'protected', members: { 3: 4 } } })
      .then(['name: P → Shop', 'mode: open → protected', 'members: +[user 3 (role 4)]']);
  });

  test('environment.disconnected: the environment leaves the project', () => {
    given({ type: 'environment.disconnected', environment: 'production', version: 3, before: META, meta: { ...META, environments: ['development'] } })
      .then(['environments: −[production]']);
  });

  test('flag.created: its type, then what it was created with', () => {
    given({ type: 'flag.created', flag: { ...flag, description: 'New checkout', type: 'experiment' } })
      .then(['flag: (none) → created (experiment)', 'description: "" → New checkout']);
  });

  test('flag.updated: description changed, stale on', () => {
    const before = { description: 'a', type: 'release' as const, stale: false, impressionData: false };
    given({ type: 'flag.updated', name: 'checkout', version: 2, before, after: { ...before, description: 'b', stale: true } })
      .then(['description: a → b', 'stale: off → on']);
  });

  test('flag.archived and flag.revived', () => {
    given({ type: 'flag.archived', name: 'checkout', version: 2, at: AT }).then(['archived: no → yes']);
    given({ type: 'flag.revived', name: 'checkout', version: 3 }).then(['archived: yes → no']);
  });

  test('flag.deleted', () => {
    given({ type: 'flag.deleted', name: 'checkout', before: { ...flag, archived: true } }).then(['flag: archived → deleted']);
  });

  test('strategy.added and strategy.deleted name the strategy with its title, rollout and constraints', () => {
    const s = { ...rollout('s1', 'checkout', { rollout: '10' }), title: 'Beta', constraints: [{ contextName: 'userId', operator: 'IN' as const, values: ['a'], caseInsensitive: false, inverted: false }] };
    given({ type: 'strategy.added', name: 'checkout', version: 2, environment: 'production', strategy: s, enabled: false })
      .then(['production › strategy: added flexibleRollout "Beta", rollout 10%, userId IN [a]']);
    given({ type: 'strategy.deleted', name: 'checkout', version: 3, environment: 'production', before: s, enabled: false })
      .then(['production › strategy: removed flexibleRollout "Beta", rollout 10%, userId IN [a]']);
  });

  test('strategy.updated: rollout 10 → 50, a constraint\'s values added and removed, disabled, segments', () => {
    const constraint = { contextName: 'userId', operator: 'IN' as const, values: ['c', 'd'], caseInsensitive: false, inverted: false };
    const before = { ...rollout('s1', 'checkout', { rollout: '10' }), constraints: [constraint] };
    const after = { ...before, disabled: true, parameters: { ...before.parameters, rollout: '50' }, constraints: [{ ...constraint, values: ['a', 'b', 'd'] }], segments: [4] };
    given({ type: 'strategy.updated', name: 'checkout', version: 2, environment: 'production', before, strategy: after, enabled: true }).then([
      'production › flexibleRollout › status: active → disabled',
      'production › flexibleRollout › rollout: 10 → 50',
      'production › flexibleRollout › constraint userId IN › values: +[a, b] −[c]',
      'production › flexibleRollout › segments: +[4]',
    ]);
  });

  test('strategies.sorted: each strategy\'s new place', () => {
    given({ type: 'strategies.sorted', name: 'checkout', version: 2, environment: 'development', before: [{ id: 'a', sortOrder: 0 }, { id: 'b', sortOrder: 1 }], order: [{ id: 'a', sortOrder: 1 }, { id: 'b', sortOrder: 0 }] })
      .then(['development › strategy a › sort order: 0 → 1', 'development › strategy b › sort order: 1 → 0']);
  });

  test('flag.enabled (with the default strategy it added) and flag.disabled', () => {
    given({ type: 'flag.enabled', name: 'checkout', version: 2, environment: 'development', added: null }).then(['development: off → on']);
    given({ type: 'flag.enabled', name: 'checkout', version: 2, environment: 'production', added: rollout('s9', 'checkout') })
      .then(['production: off → on', 'production › strategy: added flexibleRollout, rollout 100%']);
    given({ type: 'flag.disabled', name: 'checkout', version: 3, environment: 'development' }).then(['development: on → off']);
  });

  test('variants.updated: weights moved, one added, one removed', () => {
    given({ type: 'variants.updated', name: 'checkout', version: 2, before: [variant('a', 500), variant('b', 500)], variants: [variant('a', 334), variant('c', 666, { payload: { type: 'string', value: 'x' } })] })
      .then(['variants › variant a › weight: 500 → 334', 'variants › variant: added c (weight 666)', 'variants › variant: removed b (weight 500)']);
  });

  test('flag.imported: the flag it replaced, compared whole', () => {
    const before: Flag = { ...flag, environments: { development: { enabled: true, strategies: [strategy('s1')] } } };
    const after: Flag = { ...flag, description: 'imported', environments: { development: { enabled: false, strategies: [strategy('s1')] } } };
    given({ type: 'flag.imported', name: 'checkout', version: 4, before, flag: after }).then(['description: "" → imported', 'development: on → off']);
  });

  test('flag.tagged: tags added and removed', () => {
    given({ type: 'flag.tagged', name: 'checkout', version: 2, added: [{ type: 'team', value: 'web' }], removed: [{ type: 'team', value: 'api' }] })
      .then(['tags: +[team:web] −[team:api]']);
  });

  test('dependency.added (new, and replacing one on the same parent) and dependencies.removed', () => {
    given({ type: 'dependency.added', name: 'checkout', version: 2, before: null, dependency: { feature: 'login', enabled: true } }).then(['dependency: added login']);
    given({ type: 'dependency.added', name: 'checkout', version: 3, before: { feature: 'login', enabled: true }, dependency: { feature: 'login', enabled: false } })
      .then(['dependency › login: login → not login']);
    given({ type: 'dependencies.removed', name: 'checkout', version: 4, removed: [{ feature: 'login', enabled: true, variants: ['a'] }] })
      .then(['dependency: removed login (variants a)']);
  });
});

describe('flagChanges between two moments', () => {
  test('a strategy added, the environment switched on, a tag added; version and times ignored', () => {
    const before: Flag = { ...flag, version: 3 };
    const after: Flag = {
      ...flag, version: 9, lastSeenAt: AT, tags: [{ type: 'team', value: 'web' }],
      environments: { ...flag.environments, production: { enabled: true, strategies: [rollout('s1', 'checkout', { rollout: '25' })] } },
    };
    expect(flagChanges(before, after).map((c) => c.text)).toEqual(['production: off → on', 'production › strategy: added flexibleRollout, rollout 25%', 'tags: +[team:web]']);
    expect(flagChanges(after, { ...after, version: 12 })).toEqual([]);
  });

  test('strategies reordered: the order before and after, by label', () => {
    const a = { ...strategy('a', { name: 'default', sortOrder: 0 }) };
    const b = { ...strategy('b', { name: 'userWithId', sortOrder: 1 }) };
    const before: Flag = { ...flag, environments: { development: { enabled: true, strategies: [a, b] } } };
    const after: Flag = { ...flag, environments: { development: { enabled: true, strategies: [{ ...b, sortOrder: 0 }, { ...a, sortOrder: 1 }] } } };
    expect(flagChanges(before, after).map((c) => c.text)).toEqual(['development › strategy order: default, userWithId → userWithId, default']);
  });
});
