/**
 * Work that only one node of a deployment does. Today flagpole is one node, which always holds every duty
 * ({@link LONE_NODE}); with several nodes over one PostgreSQL (docs/scaling.md), an implementation backed by a
 * lease (an advisory lock, a row with an expiry) answers `held: false` on every node but one, and the node
 * that holds it is replaced when it stops. The scheduler of change requests runs its applies through it.
 *
 * Holding a duty is not what makes a scheduled apply happen once: the project mailbox applies a request only
 * from the schedule it is in (`decide/change-request-apply.ts`), so a second attempt anywhere is refused. The
 * duty keeps the other nodes from trying.
 */
export interface SingleNodeDuty {
  /**
   * Runs `task` when this node holds `duty` now, and answers its value; answers `held: false`, without
   * running it, when another node does (the caller tries again later).
   */
  runIfHeld<T>(duty: string, task: () => Promise<T>): Promise<{ held: true; value: T } | { held: false }>;
}

/** The one node of a single-node deployment: it holds every duty. */
export const LONE_NODE: SingleNodeDuty = {
  async runIfHeld(_duty, task) {
    return { held: true, value: await task() };
  },
};
