import type { ServiceCommand, ServiceEvent, ServiceState } from '../domain/service-state.js';
import { evolveService, forkService } from '../domain/service-state.js';
import { decideService } from '../domain/decide-service.js';
import type { Model } from './command-actor.js';

export type ServiceModel = Model<ServiceState, ServiceState, ServiceCommand, ServiceEvent, unknown>;

export const emptyServiceState = (): ServiceState => ({ environments: [], users: {}, nextUserId: 1, tokens: {} });

/** The pure logic of the service actor (environments, users, tokens), wired for {@link CommandActor}. */
export const serviceModel: ServiceModel = {
  scope: 'service',
  machines: {},
  fork: forkService,
  decide: decideService,
  evolve: evolveService,
  publish: (_state, draft) => draft,
  snapshotOf: (state) => ({ meta: state, items: [] }),
};
