/**
 * Bounded concurrency with a bounded wait, for work that runs on libuv's thread pool (scrypt) and must not
 * queue ahead of everything else that needs it (LevelDB's reads and writes): at most `running` at once, at
 * most `waiting` in line, and a caller past that is told at once rather than queued.
 */

/** What {@link WorkGate.run} answers when the line is full: the work was not started. */
export const GATE_FULL = Symbol('gate full');

/** A gate per app (`ConsoleDeps.passwordChecks`). */
export class WorkGate {
  #running = 0;
  readonly #line: (() => void)[] = [];

  constructor(readonly maxRunning: number, readonly maxWaiting: number) {}

  /** Work running now. */
  get running(): number {
    return this.#running;
  }

  /** Callers waiting for a free place. */
  get waiting(): number {
    return this.#line.length;
  }

  /**
   * Runs `work` once a place is free, or answers {@link GATE_FULL} at once when `maxWaiting` callers already wait.
   *
   * @example const checked = await gate.run(() => verifyPassword(text, stored)); if (checked === GATE_FULL) answer503();
   */
  async run<T>(work: () => Promise<T>): Promise<T | typeof GATE_FULL> {
    if (this.#running < this.maxRunning) this.#running += 1;
    else if (this.#line.length >= this.maxWaiting) return GATE_FULL;
    // The place of a finished work is handed to the first in line: `#running` stays as it is.
    else await new Promise<void>((resolve) => this.#line.push(resolve));
    try {
      return await work();
    } finally {
      const next = this.#line.shift();
      if (next) next();
      else this.#running -= 1;
    }
  }
}
