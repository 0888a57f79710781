/**
 * The service's decide function, given / when / then: the rules that must hold under concurrency and are
 * therefore decided in the service mailbox (an environment's sort order, a token's scope, a root Admin left).
 */
import { describe, expect, test } from 'vitest';
import { givenService, projects } from '../helpers/decider.js';
import { admin, environment, environmentCreated, token, tokenCreated, user, userCreated } from '../helpers/service-events.js';

const TWO_ENVIRONMENTS = [environmentCreated('development', 1), environmentCreated('production', 2)];
const createEnvironment = (name: string, sortOrder?: number) =>
  ({ type: 'environment.create' as const, environment: { name, type: 'development', enabled: true, protected: false, ...(sortOrder === undefined ? {} : { sortOrder }) } });

describe('environment sortOrder, decided in the mailbox', () => {
  test('absent: one more than the highest', () => {
    givenService(TWO_ENVIRONMENTS).when(createEnvironment('staging'))
      .then([environmentCreated('staging', 3)])
      .thenReply(environment('staging', 3));
    givenService([...TWO_ENVIRONMENTS, environmentCreated('far', 10)]).when(createEnvironment('next'))
      .then([environmentCreated('next', 11)]);
  });

  test('absent in an empty service: 1', () => {
    givenService([]).when(createEnvironment('first')).then([environmentCreated('first', 1)]);
  });

  test('given: kept as given, even below the highest', () => {
    givenService(TWO_ENVIRONMENTS).when(createEnvironment('early', 0)).then([environmentCreated('early', 0)]);
  });

  test('two creates decided against the same draft in sequence get distinct values', () => {
    const decided = givenService(TWO_ENVIRONMENTS).when(createEnvironment('qa'), createEnvironment('staging'))
      .then([environmentCreated('qa', 3), environmentCreated('staging', 4)]);
    expect(decided.draft.environments.map((e) => e.sortOrder)).toEqual([1, 2, 3, 4]);
  });

  test('a used name is refused', () => {
    givenService(TWO_ENVIRONMENTS).when(createEnvironment('production')).then({ error: 'NameExistsError', message: /production/ });
    givenService(TWO_ENVIRONMENTS).when(createEnvironment('qa'), createEnvironment('qa')).then({ error: 'NameExistsError' });
  });
});

describe('token scope, checked in the mailbox', () => {
  const facts = [...TWO_ENVIRONMENTS, userCreated(admin(1)), userCreated(user(2))];

  test('a known project, environment and user: accepted', () => {
    const scoped = token('a', { projects: ['default'], environment: 'production' });
    givenService(facts).when({ type: 'token.create', token: scoped }).then([tokenCreated(scoped)]).thenReply(scoped);
    const personal = token('b', { type: 'personal', userId: 2 });
    givenService(facts).when({ type: 'token.create', token: personal }).then([tokenCreated(personal)]);
  });

  test('an unknown project: NotFoundError naming it', () => {
    givenService(facts).when({ type: 'token.create', token: token('a', { projects: ['default', 'nope'] }) })
      .then({ error: 'NotFoundError', message: /"nope"/ });
    // Projects live outside the service state: the lookup decides.
    givenService(facts, projects('default', 'nope')).when({ type: 'token.create', token: token('a', { projects: ['default', 'nope'] }) })
      .then([tokenCreated(token('a', { projects: ['default', 'nope'] }))]);
  });

  test('an unknown environment: NotFoundError naming it', () => {
    givenService(facts).when({ type: 'token.create', token: token('a', { environment: 'staging' }) })
      .then({ error: 'NotFoundError', message: /"staging"/ });
  });

  test('a personal token for an unknown user: NotFoundError', () => {
    givenService(facts).when({ type: 'token.create', token: token('a', { type: 'personal', userId: 9 }) })
      .then({ error: 'NotFoundError', message: /9/ });
  });

  test('a personal token for a user deleted earlier in the same batch: NotFoundError', () => {
    givenService(facts).when({ type: 'user.delete', userId: 2 }, { type: 'token.create', token: token('a', { type: 'personal', userId: 2 }) })
      .then({ error: 'NotFoundError' });
  });

  test('a secret already stored: NameExistsError', () => {
    givenService([...facts, tokenCreated(token('a'))]).when({ type: 'token.create', token: token('a') }).then({ error: 'NameExistsError' });
  });
});

describe('a root Admin is left', () => {
  test('deleting the last root Admin is refused with ValidationError', () => {
    givenService([userCreated(admin(1)), userCreated(user(2))]).when({ type: 'user.delete', userId: 1 })
      .then({ error: 'ValidationError', message: /last root Admin/ });
  });

  test('deleting one of two root Admins is accepted, and then the other is the last', () => {
    const facts = [userCreated(admin(1)), userCreated(admin(2))];
    givenService(facts).when({ type: 'user.delete', userId: 1 })
      .then([{ type: 'user.deleted', user: admin(1) }])
      .thenReply(admin(1));
    givenService(facts).when({ type: 'user.delete', userId: 1 }, { type: 'user.delete', userId: 2 }).then({ error: 'ValidationError' });
  });

  test('a user who is not an Admin may always go', () => {
    givenService([userCreated(admin(1)), userCreated(user(2))]).when({ type: 'user.delete', userId: 2 })
      .then([{ type: 'user.deleted', user: user(2) }]);
  });
});
