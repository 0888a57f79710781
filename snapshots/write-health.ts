import type { WriteHealth } from './store.js';

/**
 * A store's {@link WriteHealth} as it goes: writes started and ended, failed and succeeded. While writes are
 * failing, `probe` is tried every `probeMs` (even when nobody writes), so health clears once the store takes
 * writes again.
 *
 * @example const health = new HealthTracker(() => store.probeWrite(), 1000); health.failed('...'); health.report()
 */
export class HealthTracker {
  private failingSince: number | null = null;
  private lastError: string | null = null;
  private startedAt = 0;
  private timer: NodeJS.Timeout | null = null;
  private probing = false;

  constructor(private readonly probe: () => Promise<void>, private readonly probeMs: number) {}

  /** A synced write begins: its wait shows in `writingForMs` until {@link ended}. */
  started(): void {
    this.startedAt = Date.now();
  }

  ended(): void {
    this.startedAt = 0;
  }

  /** A write failed with `line` (already safe to show anyone); probing starts. */
  failed(line: string): void {
    this.lastError = line.slice(0, 200);
    if (this.failingSince !== null) return;
    this.failingSince = Date.now();
    this.timer = setInterval(() => void this.tryProbe(), this.probeMs);
    this.timer.unref();
  }

  /** A write succeeded: writes work. */
  succeeded(): void {
    if (this.failingSince === null) return;
    this.failingSince = null;
    this.lastError = null;
    this.stop();
  }

  report(now = Date.now()): WriteHealth {
    return { failingSince: this.failingSince, lastError: this.lastError, writingForMs: this.startedAt === 0 ? 0 : now - this.startedAt };
  }

  /** Stops probing (the store closes). */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async tryProbe(): Promise<void> {
    if (this.probing) return;
    this.probing = true;
    try {
      await this.probe();
      this.succeeded();
    } catch {
      // Still failing; the next tick tries again.
    } finally {
      this.probing = false;
    }
  }
}
