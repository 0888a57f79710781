import type { SharedLog } from '../../../snapshots/shared-log.js';
import type { Logger } from '../../log.js';
import type { RunningWork, SingletonWork } from '../singleton-work.js';

/**
 * Work only one node of several does (`SingletonWork`), under a lease of the shared store: started when this
 * node takes the lease, stopped when it loses it (its connection to the database broke), and taken over by
 * another node when this one dies or stops. Such work must be safe to repeat, since a node cut off learns it
 * has lost the lease only at its lease's next check.
 *
 * @example registry.deliveries.start(new LeasedSingletonWork(store.shared, log));
 */
export class LeasedSingletonWork implements SingletonWork {
  constructor(private readonly shared: SharedLog, private readonly log: Logger) {}

  run(name: string, start: () => RunningWork): RunningWork {
    const lease = this.shared.lease(name);
    let running: RunningWork | null = null;
    let stopping: Promise<void> = Promise.resolve();
    const stop = () => {
      const work = running;
      running = null;
      if (work) stopping = stopping.then(() => work.stop()).catch((error: unknown) => this.log.error({ err: error, work: name }, `stopping ${name} failed`));
      return stopping;
    };
    const follow = (held: boolean) => {
      if (held && running === null) {
        this.log.info({ work: name }, `this node took the lease of ${name}: it does that work now`);
        running = start();
      } else if (!held) {
        if (running) this.log.warn({ work: name }, `this node lost the lease of ${name}: another node takes it over`);
        void stop();
      }
    };
    const unsubscribe = lease.onChange(follow);
    follow(lease.held);
    return {
      async stop() {
        unsubscribe();
        await stop();
        await lease.close();
      },
    };
  }
}
