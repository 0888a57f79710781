/**
 * The project's decisions on tags and dependencies, given / when / then over pure data: what is recorded,
 * what changes nothing, and Unleash 6.10's dependency rules, including two commands of one batch that would
 * build a chain between them.
 */
import { describe, expect, test } from 'vitest';
import type { ProjectEvent } from '../../src/domain/events.js';
import { flagAfter, given } from '../helpers/decider.js';
import { archive } from '../helpers/project-commands.js';
import { flagArchived, flagCreated } from '../helpers/project-events.js';

const beta = { type: 'simple', value: 'beta' };
const gamma = { type: 'simple', value: 'gamma' };
const tagged = (name: string, added: typeof beta[], removed: typeof beta[] = []): ProjectEvent => ({ type: 'flag.tagged', name, version: 0, added, removed });
const depends = (child: string, parent: string, enabled = true, variants: string[] = []): ProjectEvent =>
  ({ type: 'dependency.added', name: child, version: 0, dependency: enabled ? { feature: parent, enabled, variants } : { feature: parent, enabled }, before: null });
const dependOn = (child: string, parent: string, extra: { enabled?: boolean; variants?: string[] } = {}) =>
  ({ type: 'dependency.add' as const, feature: child, dependency: { feature: parent, enabled: extra.enabled ?? true, ...(extra.variants ? { variants: extra.variants } : {}) }, elsewhere: false });

describe('tags.change', () => {
  test('records only what changes, per flag; a listed flag twice sees its first change', () => {
    const spec = given([flagCreated('a'), flagCreated('b'), tagged('a', [beta])]);
    const decided = spec.when({ type: 'tags.change', features: ['a', 'b', 'b'], added: [beta, gamma, beta], removed: [] })
      .then([tagged('a', [gamma]), tagged('b', [beta, gamma])]);
    expect(flagAfter(decided, 'a').tags).toEqual([beta, gamma]);
    decided.thenReply([[beta, gamma], [beta, gamma], [beta, gamma]]);
    spec.when({ type: 'tags.change', features: ['a'], added: [beta], removed: [gamma] }).then([]);
  });

  test('an unknown or archived flag refuses the whole change', () => {
    const spec = given([flagCreated('a'), flagCreated('b'), flagArchived('b')]);
    spec.when({ type: 'tags.change', features: ['a', 'ghost'], added: [beta], removed: [] }).then({ error: 'NotFoundError', message: /ghost/ });
    spec.when({ type: 'tags.change', features: ['a', 'b'], added: [beta], removed: [] }).then({ error: 'ArchivedFeatureError' });
  });
});

describe('dependencies', () => {
  test('an added dependency keeps variants only when enabled; the same condition again records nothing', () => {
    const spec = given([flagCreated('p'), flagCreated('c')]);
    spec.when(dependOn('c', 'p', { variants: ['x', 'x'] })).then([depends('c', 'p', true, ['x'])]);
    spec.when(dependOn('c', 'p', { enabled: false, variants: ['x'] })).then([depends('c', 'p', false)]);
    given([flagCreated('p'), flagCreated('c'), depends('c', 'p')]).when(dependOn('c', 'p')).then([]);
  });

  test('Unleash 6.10 rules: not itself, one level both ways, an active parent', () => {
    const spec = given([flagCreated('g'), flagCreated('p'), flagCreated('c'), flagCreated('x'), flagCreated('old'), flagArchived('old'), depends('c', 'p')]);
    spec.when(dependOn('x', 'x')).then({ error: 'InvalidOperationError', message: /itself/ });
    spec.when(dependOn('p', 'g')).then({ error: 'InvalidOperationError', message: /other features depend on/ });
    spec.when(dependOn('x', 'c')).then({ error: 'InvalidOperationError', message: /has parent dependency/ });
    spec.when(dependOn('x', 'old')).then({ error: 'InvalidOperationError', message: /No active feature old/ });
    spec.when({ ...dependOn('x', 'elsewhere'), elsewhere: true }).then({ error: 'InvalidOperationError', message: /same project/ });
  });

  test('two commands of one batch cannot build a chain: the second sees the first', () => {
    given([flagCreated('a'), flagCreated('b'), flagCreated('c')])
      .when(dependOn('b', 'a'), dependOn('c', 'b'))
      .then({ error: 'InvalidOperationError', message: /has parent dependency/ });
    given([flagCreated('a'), flagCreated('b'), flagCreated('c')])
      .when(dependOn('b', 'a'), dependOn('a', 'c'))
      .then({ error: 'InvalidOperationError', message: /other features depend on/ });
  });

  test('archive: refused for a parent with active children; a child lets go of its parents first', () => {
    const spec = given([flagCreated('p'), flagCreated('c'), depends('c', 'p')]);
    spec.when(archive('p')).then({ error: 'InvalidOperationError', message: /depend on it/ });
    const archived = spec.when(archive('c')).then([
      { type: 'dependencies.removed', name: 'c', version: 0, removed: [{ feature: 'p', enabled: true, variants: [] }] },
      { type: 'flag.archived', name: 'c', version: 0, at: expect.any(String) as unknown as string },
    ]);
    expect(flagAfter(archived, 'c').dependencies).toEqual([]);
  });

  test('remove: one parent, or all; none to remove records nothing', () => {
    const spec = given([flagCreated('p'), flagCreated('q'), flagCreated('c'), depends('c', 'p'), depends('c', 'q')]);
    spec.when({ type: 'dependency.remove', feature: 'c', parent: 'q' }).then([{ type: 'dependencies.removed', name: 'c', version: 0, removed: [{ feature: 'q', enabled: true, variants: [] }] }]);
    spec.when({ type: 'dependency.remove', feature: 'c', parent: 'ghost' }).then([]);
    const all = spec.when({ type: 'dependency.remove', feature: 'c' }).then([{ type: 'dependencies.removed', name: 'c', version: 0, removed: [{ feature: 'p', enabled: true, variants: [] }, { feature: 'q', enabled: true, variants: [] }] }]);
    expect(flagAfter(all, 'c').dependencies).toEqual([]);
  });
});
