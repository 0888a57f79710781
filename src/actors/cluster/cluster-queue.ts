import type { SharedLog } from '../../../snapshots/shared-log.js';
import { SerialQueue } from '../serial-queue.js';
import type { Sequencer } from './sequencer.js';

/**
 * A mailbox for work that spans several actors (`SerialQueue`), one at a time across every node: on a store
 * several nodes share, a task first takes the lock `name` in the store and catches up with what any node
 * committed, so it decides on everything committed before it, and no task of another node runs meanwhile.
 * On LevelDB it is the process's queue alone.
 *
 * @example await registry.access.run(async () => { ... read committed states, send commands ... })
 */
export class ClusterQueue {
  private readonly local = new SerialQueue();

  constructor(
    private readonly name: string,
    private readonly shared: SharedLog | null,
    private readonly sequencer: Sequencer,
  ) {}

  /** Runs `task` after every task queued before it, here and on every other node; its result or error is the caller's alone. */
  run<T>(task: () => Promise<T>): Promise<T> {
    const shared = this.shared;
    if (!shared) return this.local.run(task);
    return this.local.run(async () => {
      const held = await shared.lock(this.name);
      try {
        await this.sequencer.catchUp();
        return await task();
      } finally {
        await held.release();
      }
    });
  }
}
