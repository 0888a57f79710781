/**
 * The project and environment rules decided in their mailboxes, given / when / then: a project's update and
 * delete, an environment leaving a project (its flag entries with it), an environment released for deletion,
 * and the service's environment update, toggle, sort order, delete and a deleted project's traces.
 */
import { describe, expect, test } from 'vitest';
import type { ServiceLookups } from '../../src/domain/context.js';
import { AT, flagAfter, given, givenService, projects } from '../helpers/decider.js';
import { META, flagArchived, flagCreated, strategy, strategyAdded } from '../helpers/project-events.js';
import { environment, environmentCreated, token, tokenCreated } from '../helpers/service-events.js';

const TWO_ENVIRONMENTS = [environmentCreated('development', 1), environmentCreated('production', 2)];

describe('project.update', () => {
  test('absent fields keep their value; the defaults of older records are open and default', () => {
    given([]).when({ type: 'project.update', settings: { name: 'Renamed', mode: 'private' } })
      .then([{ type: 'project.updated', before: META, meta: { ...META, name: 'Renamed', mode: 'private', defaultStickiness: 'default', updatedAt: AT } }]);
  });

  test('the same values record nothing', () => {
    given([]).when({ type: 'project.update', settings: { name: 'P', description: '', mode: 'open', defaultStickiness: 'default' } }).then([]);
  });
});

describe('project.delete', () => {
  test('refused while an active flag exists, naming the count', () => {
    given([flagCreated('a'), flagCreated('b'), flagArchived('b')]).when({ type: 'project.delete' })
      .then({ error: 'InvalidOperationError', message: /has 1;/ });
  });

  test('accepted with only archived flags: one record marks the meta deleted, naming them; nothing is decided after it', () => {
    given([flagCreated('old'), flagArchived('old')]).when({ type: 'project.delete' })
      .then([{ type: 'project.updated', before: META, meta: { ...META, deleted: true } }])
      .thenReply(['old']);
    given([flagCreated('old'), flagArchived('old')]).when({ type: 'project.delete' }, { type: 'flag.create', name: 'late', description: '', flagType: 'release', impressionData: false })
      .then({ error: 'NotFoundError' });
  });
});

describe('environment.connect and environment.disconnect', () => {
  test('connecting one already connected: 409', () => {
    given([]).when({ type: 'environment.connect', environment: 'production' }).then({ error: 'NameExistsError' });
  });

  test('disconnecting removes every flag entry there, strategies included, and versions the flags that had one', () => {
    const s = strategy('s1');
    const decided = given([flagCreated('a'), strategyAdded('a', 'production', s), flagCreated('b', ['development'])])
      .when({ type: 'environment.disconnect', environment: 'production' });
    decided.then([{ type: 'environment.disconnected', environment: 'production', before: META, meta: { ...META, environments: ['development'] }, version: 0 }]);
    const a = flagAfter(decided, 'a');
    expect(Object.keys(a.environments)).toEqual(['development']);
    expect(a.version).toBe(4);
    // "b" never had a production entry: unchanged, version kept.
    expect(flagAfter(decided, 'b').version).toBe(3);
  });

  test('the last environment cannot go', () => {
    given([]).when({ type: 'environment.disconnect', environment: 'production' }, { type: 'environment.disconnect', environment: 'development' })
      .then({ error: 'InvalidOperationError', message: /last environment/ });
  });
});

describe('environment.release (deleting an environment)', () => {
  test('refused while any flag, archived ones too, exists', () => {
    given([flagCreated('old'), flagArchived('old')]).when({ type: 'environment.release', environment: 'production' })
      .then({ error: 'InvalidOperationError', message: /1 feature flag/ });
  });

  test('a project without flags lets it go and answers its default strategy; one without it records nothing', () => {
    const withDefault = { ...META, defaultStrategies: { production: { name: 'default' } } } as typeof META;
    given([{ type: 'project.updated', meta: withDefault, before: META }]).when({ type: 'environment.release', environment: 'production' })
      .then([{ type: 'environment.disconnected', environment: 'production', before: withDefault, meta: { ...META, environments: ['development'], defaultStrategies: {} }, version: 0 }])
      .thenReply({ name: 'default' } as never);
    given([]).when({ type: 'environment.release', environment: 'staging' }).then([]).thenReply(null);
  });
});

describe('service environment changes', () => {
  test('update keeps what is absent; the list follows the new order', () => {
    const decided = givenService(TWO_ENVIRONMENTS).when({ type: 'environment.update', name: 'development', sortOrder: 5 })
      .then([{ type: 'environment.updated', environment: environment('development', 5), before: environment('development', 1) }]);
    expect(decided.draft.environments.map((e) => e.name)).toEqual(['production', 'development']);
    givenService(TWO_ENVIRONMENTS).when({ type: 'environment.update', name: 'nowhere', sortOrder: 5 }).then({ error: 'NotFoundError' });
  });

  test('toggle: a change records an update, the same value nothing', () => {
    givenService(TWO_ENVIRONMENTS).when({ type: 'environment.toggle', name: 'production', enabled: true }).then([]);
    givenService(TWO_ENVIRONMENTS).when({ type: 'environment.toggle', name: 'production', enabled: false })
      .then([{ type: 'environment.updated', environment: { ...environment('production', 2), enabled: false }, before: environment('production', 2) }]);
  });

  test('sort: all or nothing; unchanged places record nothing', () => {
    givenService(TWO_ENVIRONMENTS).when({ type: 'environment.sort', order: [{ name: 'production', sortOrder: 0 }, { name: 'nowhere', sortOrder: 1 }] })
      .then({ error: 'NotFoundError', message: /nowhere/ });
    givenService(TWO_ENVIRONMENTS).when({ type: 'environment.sort', order: [{ name: 'production', sortOrder: 2 }] }).then([]);
  });

  test('delete: refused while a project has it or a token is scoped to it', () => {
    const connected: ServiceLookups = { ...projects('default'), environmentProjects: (name) => (name === 'production' ? ['default'] : []) };
    givenService(TWO_ENVIRONMENTS, connected).when({ type: 'environment.delete', name: 'production' }).then({ error: 'InvalidOperationError', message: /"default"/ });
    givenService([...TWO_ENVIRONMENTS, tokenCreated(token('h1', { environment: 'development' }))]).when({ type: 'environment.delete', name: 'development' })
      .then({ error: 'InvalidOperationError', message: /token/ });
    givenService(TWO_ENVIRONMENTS).when({ type: 'environment.delete', name: 'development' })
      .then([{ type: 'environment.deleted', environment: environment('development', 1) }]);
  });

  test('a protected environment (none is, unless a restored Unleash had one) is neither changed nor deleted', () => {
    const guarded = [{ type: 'environment.created' as const, environment: { ...environment('default', 1), protected: true } }];
    givenService(guarded).when({ type: 'environment.update', name: 'default', sortOrder: 9 }).then({ error: 'InvalidOperationError', message: /protected/ });
    givenService(guarded).when({ type: 'environment.delete', name: 'default' }).then({ error: 'InvalidOperationError', message: /protected/ });
    // Enabling or disabling it is allowed (Unleash's own `default` environment is a disabled protected one).
    givenService(guarded).when({ type: 'environment.toggle', name: 'default', enabled: false }).then([expect.objectContaining({ type: 'environment.updated' })]);
  });

  test('project.forget: tokens of that project alone go, others lose it; nothing to forget records nothing', () => {
    const decided = givenService([
      tokenCreated(token('only', { projects: ['web'] })), tokenCreated(token('both', { projects: ['web', 'app'] })), tokenCreated(token('all', { projects: ['*'] })),
    ]).when({ type: 'project.forget', project: 'web' }).then([{ type: 'project.forgotten', project: 'web' }]);
    expect(Object.keys(decided.draft.tokens).sort()).toEqual(['all', 'both']);
    expect(decided.draft.tokens['both']!.projects).toEqual(['app']);
    givenService([tokenCreated(token('all', { projects: ['*'] }))]).when({ type: 'project.forget', project: 'web' }).then([]);
  });
});
