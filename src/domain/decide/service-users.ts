/**
 * Changes to a user after their creation, decided in the service mailbox: name, email and root role (the last
 * root Admin stays one, emails stay unique), and one-time password links (made, used once, unexpired).
 */
import type { CommandContext } from '../context.js';
import { about, accept, fail, failAt, refuse, type Decision } from '../errors.js';
import { ROOT_ADMIN } from '../roles.js';
import type { ServiceCommand } from '../service-commands.js';
import type { ServiceEvent } from '../service-events.js';
import type { ServiceState, User } from '../service-state.js';

type UserCommand = Extract<ServiceCommand, { type: 'user.update' | 'user.password-link.create' | 'user.password-link.use' }>;

const noUser = (userId: number) => fail('NotFoundError', `Could not find user with id ${userId}`);

/** The one answer to a link that cannot be used: it never tells whether it existed, expired or was used. */
export const LINK_ENDED = 'This link has expired or has already been used; ask an Admin for a new one';

/** Whether `user` is the only root Admin of the service. */
const lastAdmin = (draft: ServiceState, user: User) =>
  user.rootRole === ROOT_ADMIN && !Object.values(draft.users).some((u) => u.id !== user.id && u.rootRole === ROOT_ADMIN);

/** Whether the user holds any password link. */
const hasLinks = (draft: ServiceState, userId: number) => Object.values(draft.passwordLinks ?? {}).some((link) => link.userId === userId);

/** One user change; see {@link UserCommand}. */
export function decideUserChange(draft: ServiceState, command: UserCommand, context: CommandContext): Decision<ServiceEvent, unknown> {
  switch (command.type) {
    case 'user.update': {
      const before = draft.users[String(command.userId)];
      if (!before) return refuse(noUser(command.userId));
      const after: User = {
        ...before,
        ...(command.name === undefined ? {} : { name: command.name }),
        ...(command.email === undefined ? {} : { email: command.email }),
        ...(command.rootRole === undefined ? {} : { rootRole: command.rootRole }),
      };
      if (after.rootRole !== ROOT_ADMIN && lastAdmin(draft, before)) {
        return refuse(fail('ValidationError', `User ${before.id} is the last root Admin; make another user an Admin before changing this one's role`));
      }
      if (after.username === null && after.email === null) return refuse(failAt('ValidationError', 'email', 'is required when the user has no username'));
      const email = after.email?.toLowerCase();
      if (email && email !== before.email?.toLowerCase() && Object.values(draft.users).some((u) => u.id !== before.id && u.email?.toLowerCase() === email)) {
        return refuse(about('email', fail('NameExistsError', `A user with email "${after.email}" already exists`)));
      }
      if (JSON.stringify(after) === JSON.stringify(before)) return accept([], before);
      return accept([{ type: 'user.updated', user: after, before }], after);
    }
    case 'user.password-link.create': {
      const user = draft.users[String(command.userId)];
      if (!user) return refuse(noUser(command.userId));
      if (draft.passwordLinks?.[command.hash]) return refuse(fail('NameExistsError', 'That link already exists'));
      return accept([{ type: 'user.password-link-created', userId: user.id, hash: command.hash, createdAt: context.at, expiresAt: command.expiresAt }], user);
    }
    case 'user.password-link.use': {
      const link = draft.passwordLinks?.[command.hash];
      const user = link ? draft.users[String(link.userId)] : undefined;
      // The mailbox's clock decides, so a link used twice at once, or as it expires, is refused exactly once.
      if (!link || !user || Date.parse(link.expiresAt) <= Date.parse(context.at)) return refuse(fail('NotFoundError', LINK_ENDED));
      return accept([
        { type: 'user.password-set', userId: user.id, passwordHash: command.passwordHash },
        { type: 'user.password-links-ended', userId: user.id },
      ], user);
    }
  }
}

/** The events of an admin's new password for `userId`: the password, and the end of any link the user held. */
export function passwordSetEvents(draft: ServiceState, userId: number, passwordHash: string): ServiceEvent[] {
  const set: ServiceEvent = { type: 'user.password-set', userId, passwordHash };
  return hasLinks(draft, userId) ? [set, { type: 'user.password-links-ended', userId }] : [set];
}
