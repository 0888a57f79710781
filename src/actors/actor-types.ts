import type { ProjectCommand, ProjectReplies } from '../domain/commands.js';
import type { ProjectEvent } from '../domain/events.js';
import type { ProjectDraft, ProjectState } from '../domain/project-state.js';
import type { ServiceCommand, ServiceReplies } from '../domain/service-commands.js';
import type { ServiceEvent } from '../domain/service-events.js';
import type { ServiceState } from '../domain/service-state.js';
import type { CommandActor } from './command-actor.js';

/** A project's mailbox: its commands, decided in turn against its state, logged, then published. */
export type ProjectActor = CommandActor<ProjectState, ProjectDraft, ProjectCommand, ProjectEvent, ProjectReplies>;
/** The service's mailbox: users, tokens, environments, segments, tag types, context fields, strategy definitions. */
export type ServiceActor = CommandActor<ServiceState, ServiceState, ServiceCommand, ServiceEvent, ServiceReplies>;
