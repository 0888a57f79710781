import type { ServiceLookups } from '../domain/context.js';
import { decideService } from '../domain/decide/service.js';
import type { ServiceCommand, ServiceReplies } from '../domain/service-commands.js';
import type { ServiceEvent } from '../domain/service-events.js';
import type { ServiceState } from '../domain/service-state.js';
import { SIMPLE_TAG_TYPE, forkService } from '../domain/service-state.js';
import { evolveService } from '../domain/service-evolve.js';
import { BUILT_IN_CONTEXT_FIELDS, BUILT_IN_STRATEGIES } from '../domain/definitions.js';
import { DEFAULT_LIMITS, type Limits } from '../limits.js';
import type { Model } from './actor-model.js';

export type ServiceModel = Model<ServiceState, ServiceState, ServiceCommand, ServiceEvent, ServiceReplies>;

export const emptyServiceState = (): ServiceState => ({ environments: [], users: {}, passwords: {}, nextUserId: 1, tokens: {}, segments: {}, nextSegmentId: 1, tagTypes: [SIMPLE_TAG_TYPE], contextFields: [...BUILT_IN_CONTEXT_FIELDS], strategyDefinitions: [...BUILT_IN_STRATEGIES] });

/** Lookups for tools that only replay (dump, restore): replay evolves recorded events and never decides. */
const replayOnly = (): never => {
  throw new Error('the service model was built for replay only');
};
export const REPLAY_ONLY: ServiceLookups = { projectExists: replayOnly, segmentUses: replayOnly, environmentProjects: replayOnly, flagsByProject: replayOnly };

/** The pure logic of the service actor (environments, users, tokens, segments), wired for {@link CommandActor}. */
export function serviceModel(lookups: ServiceLookups, limits: Limits = DEFAULT_LIMITS): ServiceModel {
  return {
    scope: 'service',
    machines: {},
    fork: forkService,
    // One literal, not a spread followed by `limits` (see `project-model.ts`).
    decide: (draft, command, { at, by, seq, arrival }) => decideService(draft, command, { at, by, seq, arrival, limits }, lookups),
    evolve: evolveService,
    publish: (_state, draft) => draft,
    snapshotOf: (state) => ({ meta: state, items: [] }),
  };
}
