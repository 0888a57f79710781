/**
 * Work only one node of a deployment does at a time: addon deliveries (and, once change requests land, their
 * scheduler). With one process per data directory the node always holds it (`LocalSingletonWork`); several nodes
 * over one PostgreSQL (issue 40) will hold a lease instead, and start and stop the work as they win and lose it.
 */

/** A piece of work that runs until stopped. */
export interface RunningWork {
  stop(): Promise<void>;
}

/**
 * Runs work on the one node that holds a named lease.
 *
 * @example const held = work.run('addon-deliveries', () => deliveries.begin()); ... await held.stop();
 */
export interface SingletonWork {
  /**
   * Starts `start()` once this node holds the lease `name` and stops what it returned when the lease is lost; the
   * answer's `stop` gives the lease up (stopping the work if it runs).
   */
  run(name: string, start: () => RunningWork): RunningWork;
}

/** One process, one data directory: this node always holds every lease. */
export class LocalSingletonWork implements SingletonWork {
  run(_name: string, start: () => RunningWork): RunningWork {
    return start();
  }
}
