import type { CommandContext } from '../context.js';
import {
  decideCreateContextField, decideCreateStrategyDefinition, decideDeleteContextField, decideDeleteStrategyDefinition,
  decideDeleteLegalValue, decideDeprecateStrategyDefinition, decideSetLegalValue, decideUpdateContextField, decideUpdateStrategyDefinition,
} from './service-definitions.js';
import { decideUserChange, passwordSetEvents } from './service-users.js';
import { decideCreateSegment, decideDeleteSegment, decideUpdateSegment } from './service-segments.js';
import { accept, fail, refuse, type Decision } from '../errors.js';
import { ROOT_ADMIN } from '../roles.js';
import { LIMIT_VARIABLES, overLimit, type Limits } from '../../limits.js';
import { decideEnvironmentChange } from './service-environments.js';
import { decideCreateAddon, decideDeleteAddon, decideUpdateAddon } from './service-addons.js';
import { hashOfTokenId, projectTraces, rehashedToken, type ServiceState } from '../service-state.js';
import type { ServiceCommand, ServiceReplies } from '../service-commands.js';
import type { ServiceEvent } from '../service-events.js';
import type { ServiceLookups } from '../context.js';

const exceeds = (what: string, limit: number, key: keyof Limits) => fail('ExceedsLimitError', overLimit(what, limit, LIMIT_VARIABLES[key]));

type Reply<C extends ServiceCommand> = Decision<ServiceEvent, ServiceReplies[C['type']]>;

/**
 * Decides a service command (environments, users, tokens, segments, definitions, addons). The rules that must hold under
 * concurrency are decided here, in the service mailbox: names unique, the next environment's sort order, a
 * token's scope, a segment's name and whether it is in use.
 */
export function decideService<C extends ServiceCommand>(draft: ServiceState, command: C, context: CommandContext, lookups: ServiceLookups): Reply<C> {
  return decideAny(draft, command, context, lookups) as Reply<C>;
}

function decideAny(draft: ServiceState, command: ServiceCommand, context: CommandContext, lookups: ServiceLookups): Decision<ServiceEvent, unknown> {
  switch (command.type) {
    case 'service.init':
      // Only as the log's first record: a node that lost the race to initialise finds it done.
      if (context.seq > 1) return refuse(fail('NameExistsError', 'The service is initialised already'));
      return accept([{ type: 'service.initialized', state: command.state }], null);
    case 'environment.create': {
      const { name } = command.environment;
      if (draft.environments.some((e) => e.name === name)) return refuse(fail('NameExistsError', `An environment named "${name}" already exists`));
      if (draft.environments.length >= context.limits.environments) return refuse(exceeds('The number of environments', context.limits.environments, 'environments'));
      // Decided here, not by the caller: two creates in one batch see each other and get distinct places.
      const highest = draft.environments.reduce((max, e) => Math.max(max, e.sortOrder), 0);
      const environment = { ...command.environment, sortOrder: command.environment.sortOrder ?? highest + 1 };
      return accept([{ type: 'environment.created', environment }], environment);
    }
    case 'environment.update':
    case 'environment.toggle':
    case 'environment.sort':
    case 'environment.delete':
      return decideEnvironmentChange(draft, command, lookups);
    case 'project.forget': {
      const traces = projectTraces(draft, command.project);
      if (traces.tokens === 0 && traces.segments === 0) return accept([], null);
      return accept([{ type: 'project.forgotten', project: command.project }], null);
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
      if (Object.keys(draft.users).length >= context.limits.users) return refuse(exceeds('The number of users', context.limits.users, 'users'));
      const user = { ...command.user, id: draft.nextUserId, createdAt: context.at };
      if (command.passwordHash === undefined) return accept([{ type: 'user.created', user }], user);
      return accept([{ type: 'user.created', user }, { type: 'user.password-set', userId: user.id, passwordHash: command.passwordHash }], user);
    }
    case 'user.password.set': {
      const user = draft.users[String(command.userId)];
      if (!user) return refuse(fail('NotFoundError', `Could not find user with id ${command.userId}`));
      return accept(passwordSetEvents(draft, user.id, command.passwordHash), user);
    }
    case 'user.update':
    case 'user.password-link.create':
    case 'user.password-link.use':
      return decideUserChange(draft, command, context);
    case 'user.delete': {
      const user = draft.users[String(command.userId)];
      if (!user) return refuse(fail('NotFoundError', `No user with id ${command.userId}`));
      // Admin-token project creation makes the lowest-id root Admin the first Owner, so one must remain.
      if (user.rootRole === ROOT_ADMIN && !Object.values(draft.users).some((u) => u.id !== user.id && u.rootRole === ROOT_ADMIN)) {
        return refuse(fail('ValidationError', `User ${user.id} is the last root Admin; create another Admin before deleting this one`));
      }
      return accept([{ type: 'user.deleted', user }], user);
    }
    case 'token.create': {
      const { token } = command;
      if (draft.tokens[token.hash]) return refuse(fail('NameExistsError', 'That token already exists'));
      if (Object.keys(draft.tokens).length >= context.limits.apiTokens) return refuse(exceeds('The number of API and personal tokens', context.limits.apiTokens, 'apiTokens'));
      // Checked here, in the mailbox, so a personal token cannot outlive a user deleted at the same moment.
      if (token.userId !== null && !draft.users[String(token.userId)]) return refuse(fail('NotFoundError', `Could not find user with id ${token.userId}`));
      for (const project of token.projects) {
        if (project !== '*' && !lookups.projectExists(project)) return refuse(fail('NotFoundError', `Could not find project "${project}"`));
      }
      if (token.environment !== '*' && !draft.environments.some((e) => e.name === token.environment)) {
        return refuse(fail('NotFoundError', `Could not find environment "${token.environment}"`));
      }
      return accept([{ type: 'token.created', token }], token);
    }
    case 'token.delete': {
      const token = draft.tokens[command.hash];
      if (!token) return refuse(fail('NotFoundError', 'No such token'));
      return accept([{ type: 'token.deleted', token }], token);
    }
    case 'token.rehash': {
      const old = hashOfTokenId(draft, command.id);
      // Revoked between the lookup and this command: the caller is refused like any unknown token.
      if (old === undefined) return refuse(fail('NotFoundError', 'No such token'));
      const token = draft.tokens[old]!;
      // Two first uses at once: the second finds it done and records nothing.
      if (old === command.hash) return accept([], token);
      if (draft.tokens[command.hash]) return refuse(fail('NameExistsError', 'That token already exists'));
      return accept([{ type: 'token.rehashed', id: command.id, hash: command.hash }], rehashedToken(token, command.hash));
    }
    case 'segment.create':
      return decideCreateSegment(draft, command, context, lookups);
    case 'segment.update':
      return decideUpdateSegment(draft, command, context, lookups);
    case 'segment.delete':
      return decideDeleteSegment(draft, command, context, lookups);
    case 'tag-type.create': {
      const { tagType } = command;
      if (draft.tagTypes.some((t) => t.name === tagType.name)) return refuse(fail('NameExistsError', `There already exists a tag-type with the name ${tagType.name}`));
      if (draft.tagTypes.length >= context.limits.tagTypes) return refuse(exceeds('The number of tag types', context.limits.tagTypes, 'tagTypes'));
      return accept([{ type: 'tag-type.created', tagType }], tagType);
    }
    case 'tag-type.update': {
      const before = draft.tagTypes.find((t) => t.name === command.tagType.name);
      if (!before) return refuse(fail('NotFoundError', `Tagtype ${command.tagType.name} could not be found`));
      if (JSON.stringify(before) === JSON.stringify(command.tagType)) return accept([], before);
      return accept([{ type: 'tag-type.updated', tagType: command.tagType, before }], command.tagType);
    }
    case 'tag-type.delete': {
      const tagType = draft.tagTypes.find((t) => t.name === command.name);
      if (!tagType) return refuse(fail('NotFoundError', `Tagtype ${command.name} could not be found`));
      return accept([{ type: 'tag-type.deleted', tagType }], tagType);
    }
    case 'context-field.create':
      return decideCreateContextField(draft, command, context);
    case 'context-field.update':
      return decideUpdateContextField(draft, command);
    case 'context-field.delete':
      return decideDeleteContextField(draft, command);
    case 'context-field.legal-value.set':
      return decideSetLegalValue(draft, command);
    case 'context-field.legal-value.delete':
      return decideDeleteLegalValue(draft, command);
    case 'strategy-definition.create':
      return decideCreateStrategyDefinition(draft, command, context);
    case 'strategy-definition.update':
      return decideUpdateStrategyDefinition(draft, command);
    case 'strategy-definition.deprecate':
      return decideDeprecateStrategyDefinition(draft, command);
    case 'strategy-definition.delete':
      return decideDeleteStrategyDefinition(draft, command);
    case 'addon.create':
      return decideCreateAddon(draft, command, context);
    case 'addon.update':
      return decideUpdateAddon(draft, command);
    case 'addon.delete':
      return decideDeleteAddon(draft, command);
  }
}
