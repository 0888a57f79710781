/**
 * User changes decided in the service mailbox, given / when / then: a root role change (the last root Admin keeps
 * the role), and one-time password links (made, replacing the last, used once and only before they expire).
 */
import { describe, expect, test } from 'vitest';
import type { ServiceEvent } from '../../src/domain/service-events.js';
import { AT, givenService } from '../helpers/decider.js';
import { admin, user, userCreated } from '../helpers/service-events.js';

const later = (ms: number) => new Date(Date.parse(AT) + ms).toISOString();
const linkCreated = (userId: number, hash: string, expiresAt = later(3_600_000)): ServiceEvent =>
  ({ type: 'user.password-link-created', userId, hash, createdAt: AT, expiresAt });

describe('a root role change', () => {
  test('is recorded with the user before it', () => {
    givenService([userCreated(admin(1)), userCreated(user(2))]).when({ type: 'user.update', userId: 2, rootRole: 2 })
      .then([{ type: 'user.updated', user: user(2, 2), before: user(2) }])
      .thenReply(user(2, 2));
  });

  test('the last root Admin keeps the role; one of two may give it up, then the other is the last', () => {
    givenService([userCreated(admin(1)), userCreated(user(2))]).when({ type: 'user.update', userId: 1, rootRole: 3 })
      .then({ error: 'ValidationError', message: /last root Admin/ });
    givenService([userCreated(admin(1)), userCreated(admin(2))])
      .when({ type: 'user.update', userId: 1, rootRole: 2 }, { type: 'user.update', userId: 2, rootRole: 2 })
      .then({ error: 'ValidationError', message: /User 2 is the last root Admin/ });
  });

  test('an unchanged user records nothing; an unknown one is NotFoundError; a taken email NameExistsError', () => {
    const facts = [userCreated(admin(1)), userCreated({ ...user(2), email: 'b@example.com' })];
    givenService(facts).when({ type: 'user.update', userId: 1, rootRole: 1 }).then([]);
    givenService(facts).when({ type: 'user.update', userId: 9, rootRole: 1 }).then({ error: 'NotFoundError' });
    givenService(facts).when({ type: 'user.update', userId: 1, email: 'B@example.com' }).then({ error: 'NameExistsError' });
  });
});

describe('one-time password links', () => {
  const facts = [userCreated(admin(1)), userCreated(user(2))];

  test('a new link replaces the user\'s last one', () => {
    const decided = givenService([...facts, linkCreated(2, 'old')])
      .when({ type: 'user.password-link.create', userId: 2, hash: 'new', expiresAt: later(1000) })
      .then([linkCreated(2, 'new', later(1000))]);
    expect(Object.keys(decided.draft.passwordLinks ?? {})).toEqual(['new']);
  });

  test('used before it expires: the password is set and every link of the user ends', () => {
    const decided = givenService([...facts, linkCreated(2, 'h')]).when({ type: 'user.password-link.use', hash: 'h', passwordHash: 'scrypt$x' })
      .then([{ type: 'user.password-set', userId: 2, passwordHash: 'scrypt$x' }, { type: 'user.password-links-ended', userId: 2 }])
      .thenReply(user(2));
    expect(decided.draft.passwordLinks).toEqual({});
  });

  test('used twice, expired, unknown, or its user deleted: the one NotFoundError', () => {
    givenService([...facts, linkCreated(2, 'h')])
      .when({ type: 'user.password-link.use', hash: 'h', passwordHash: 'a' }, { type: 'user.password-link.use', hash: 'h', passwordHash: 'b' })
      .then({ error: 'NotFoundError', message: /expired or has already been used/ });
    givenService([...facts, linkCreated(2, 'h', AT)]).when({ type: 'user.password-link.use', hash: 'h', passwordHash: 'a' }).then({ error: 'NotFoundError' });
    givenService(facts).when({ type: 'user.password-link.use', hash: 'h', passwordHash: 'a' }).then({ error: 'NotFoundError' });
    givenService([...facts, linkCreated(2, 'h'), { type: 'user.deleted', user: user(2) }]).when({ type: 'user.password-link.use', hash: 'h', passwordHash: 'a' }).then({ error: 'NotFoundError' });
  });

  test('an admin\'s new password ends a link the user had', () => {
    givenService([...facts, linkCreated(2, 'h')]).when({ type: 'user.password.set', userId: 2, passwordHash: 'p' })
      .then([{ type: 'user.password-set', userId: 2, passwordHash: 'p' }, { type: 'user.password-links-ended', userId: 2 }]);
    givenService(facts).when({ type: 'user.password.set', userId: 2, passwordHash: 'p' }).then([{ type: 'user.password-set', userId: 2, passwordHash: 'p' }]);
  });
});
