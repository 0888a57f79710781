import type { CommandContext } from './context.js';
import { accept, fail, refuse, type Decision } from './errors.js';
import type { ServiceCommand, ServiceEvent, ServiceState } from './service-state.js';

/** Decides a service command (environments, users, tokens). */
export function decideService(draft: ServiceState, command: ServiceCommand, context: CommandContext): Decision<ServiceEvent, unknown> {
  switch (command.type) {
    case 'service.init':
      return accept([{ type: 'service.initialized', state: command.state }], null);
    case 'environment.create': {
      if (draft.environments.some((e) => e.name === command.environment.name)) {
        return refuse(fail('NameExistsError', `An environment named "${command.environment.name}" already exists`));
      }
      return accept([{ type: 'environment.created', environment: command.environment }], command.environment);
    }
    case 'user.create': {
      const email = command.user.email?.toLowerCase();
      if (email && Object.values(draft.users).some((u) => u.email?.toLowerCase() === email)) {
        return refuse(fail('NameExistsError', `A user with email "${command.user.email}" already exists`));
      }
      const username = command.user.username?.toLowerCase();
      if (username && Object.values(draft.users).some((u) => u.username?.toLowerCase() === username)) {
        return refuse(fail('NameExistsError', `A user with username "${command.user.username}" already exists`));
      }
      const user = { ...command.user, id: draft.nextUserId, createdAt: context.at };
      return accept([{ type: 'user.created', user }], user);
    }
    case 'user.delete': {
      const user = draft.users[String(command.userId)];
      if (!user) return refuse(fail('NotFoundError', `No user with id ${command.userId}`));
      return accept([{ type: 'user.deleted', user }], user);
    }
    case 'token.create':
      if (draft.tokens[command.token.hash]) return refuse(fail('NameExistsError', 'That token already exists'));
      // Checked here, in the mailbox, so a personal token cannot outlive a user deleted at the same moment.
      if (command.token.userId !== null && !draft.users[String(command.token.userId)]) {
        return refuse(fail('NotFoundError', `No user with id ${command.token.userId}`));
      }
      return accept([{ type: 'token.created', token: command.token }], command.token);
    case 'token.delete': {
      const token = draft.tokens[command.hash];
      if (!token) return refuse(fail('NotFoundError', 'No such token'));
      return accept([{ type: 'token.deleted', token }], token);
    }
  }
}
