import type { RunningWork, SingletonWork } from '../../src/actors/addons/singleton-work.js';

/**
 * A {@link SingletonWork} whose lease a test hands out by hand, as a node of several would win and lose it: the
 * work asked for runs only between {@link grant} and {@link revoke}.
 *
 * @example const lease = new LeaseWork(); const h = await harness({}, undefined, { work: lease }); lease.grant();
 */
export class LeaseWork implements SingletonWork {
  /** The leases asked for, in order. */
  readonly asked: string[] = [];
  private readonly wanted: { start: () => RunningWork; running: RunningWork | null }[] = [];
  private held = false;

  run(name: string, start: () => RunningWork): RunningWork {
    this.asked.push(name);
    const entry = { start, running: this.held ? start() : null };
    this.wanted.push(entry);
    return {
      stop: async () => {
        this.wanted.splice(this.wanted.indexOf(entry), 1);
        await entry.running?.stop();
      },
    };
  }

  /** This node wins the lease: the work starts. */
  grant(): void {
    this.held = true;
    for (const entry of this.wanted) entry.running ??= entry.start();
  }

  /** This node loses the lease: the work stops (resolves once it has). */
  async revoke(): Promise<void> {
    this.held = false;
    for (const entry of this.wanted) {
      const running = entry.running;
      entry.running = null;
      await running?.stop();
    }
  }
}
