/**
 * The potential-staleness check (`flags.potential-staleness.check`, Unleash's minute job that marks flags past their
 * type's lifetime): at start, then every `POTENTIALLY_STALE_CHECK_MS`, one at a time. It runs with the addons'
 * deliveries, under their lease, so one node of a deployment checks; the marks it records are what addons receive as
 * `feature-potentially-stale-on`.
 */
import type { Logger } from '../log.js';

/** Runs `check` now and then every `everyMs` until stopped. */
export class StalenessChecks {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(private readonly check: () => Promise<unknown>, private readonly everyMs: number, private readonly logger: Logger) {}

  /** The first check runs at once. */
  start(): void {
    this.next(0);
  }

  /** No check starts after this; resolves once the one running (if any) is done. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  private next(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.run();
    }, ms);
    this.timer.unref();
  }

  private async run(): Promise<void> {
    try {
      await this.check();
    } catch (error) {
      // A failed write (a full disk, a read-only service log): the next check tries again.
      this.logger.warn({ err: error }, 'the potential-staleness check failed; the next one tries again');
    } finally {
      this.running = null;
      this.next(this.everyMs);
    }
  }
}
