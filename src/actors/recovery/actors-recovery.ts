import { CorruptRecordError } from '../../../snapshots/codec.js';
import type { RecoveryNotice } from '../../../snapshots/recovery.js';
import type { Store } from '../../../snapshots/store.js';
import type { Limits } from '../../limits.js';
import type { ActorOptions } from '../actor-options.js';
import type { ServiceActor } from '../actor-types.js';
import type { ClusterNode } from '../cluster/cluster-node.js';
import { CommandActor } from '../command-actor.js';
import type { CommittedFeed } from '../committed-feed.js';
import type { ProjectActors } from '../project-actors.js';
import type { ProjectLifecycle } from '../project-lifecycle.js';
import { serviceModel, type ServiceModel } from '../service-model.js';
import { recoverProjects } from './project-recovery.js';
import { recoverService, serviceReadOnlyMessage, type UnavailableError } from './service-recovery.js';

/** What the actors are recovered into: the registry's store, projects, lifecycle, feed and node. */
export interface ActorsRecoveryParts {
  store: Store;
  limits: Limits;
  options: ActorOptions;
  projects: ProjectActors;
  lifecycle: ProjectLifecycle;
  feed: CommittedFeed;
  node: ClusterNode;
  /** Takes the service's actor as soon as it is made: projects and other nodes' records look it up from then on. */
  adoptService(service: ServiceActor, model: ServiceModel, unavailable: UnavailableError | null): void;
}

/** What recovery worked around, and what it left to do. */
export interface RecoveredActors {
  notices: RecoveryNotice[];
  /** Projects deleted just before the process stopped, whose data is still to be removed. */
  deleted: string[];
}

/**
 * Recovers the service actor and every project's actor from the store (projects not recovered go to
 * `projects.unavailable`), starts the feed and the node's sequencer at the revision recovered, follows other
 * nodes' commits and catches up with them: what any node committed before this start is then served.
 *
 * @example const { notices, deleted } = await recoverActors({ ...parts, adoptService: (actor) => { service = actor; } });
 */
export async function recoverActors(parts: ActorsRecoveryParts): Promise<RecoveredActors> {
  const { store, options, projects, lifecycle, feed, node } = parts;
  // On a store several nodes share: the revision this node starts at. Every record up to it is in what is
  // recovered below; what other nodes commit meanwhile comes through the sequencer (cluster-node.ts).
  const head = await store.shared?.head();
  const model = serviceModel(projects.serviceLookups(), parts.limits);
  const { recovered, unavailable } = await recoverService(store, model);
  const service = new CommandActor({ store, model, state: recovered.state, seq: recovered.seq, options, sequencer: node.sequencer, snapshotBytes: recovered.snapshotBytes });
  parts.adoptService(service, model, unavailable);
  if (unavailable) {
    const reason = serviceReadOnlyMessage(unavailable, recovered.seq);
    service.refuseWrites(reason);
    options.log.error({ key: unavailable instanceof CorruptRecordError ? unavailable.key : undefined }, `service NOT fully recovered, served READ-ONLY: ${reason}`);
  }
  const notices = [...recovered.notices];
  const found = await recoverProjects(store, (id) => lifecycle.modelOf(id));
  notices.push(...found.notices);
  for (const [id, error] of found.unavailable) projects.unavailable.set(id, error);
  // One process: the revision is the sum of every log's sequence number (`CommittedFeed`).
  let revision = recovered.seq;
  for (const { id, model: projectModel, recovered: project } of found.served) {
    lifecycle.serve(id, projectModel, project);
    revision += project.seq;
  }
  feed.startAt(head ?? revision);
  node.sequencer.startAt(head ?? revision);
  node.follow();
  await node.sequencer.catchUp();
  return { notices, deleted: found.deleted };
}
