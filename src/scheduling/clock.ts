/**
 * The clock the scheduler reads and arms its timer on. Production uses {@link SYSTEM_CLOCK}; tests pass one
 * they move by hand (the registry stamps records with the same `now`), so a schedule falls without waiting.
 */
export interface Clock {
  /** Now, in ms since the epoch. */
  now(): number;
  /** Calls `fire` once after `ms` (never keeping the process alive); answers the cancel. */
  setTimer(ms: number, fire: () => void): () => void;
}

/** Node's timers cap a delay at about 24.8 days: a longer wait is re-armed on the way. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/** The system's clock and timers. */
export const SYSTEM_CLOCK: Clock = {
  now: () => Date.now(),
  setTimer(ms, fire) {
    const timer = setTimeout(fire, Math.min(Math.max(0, ms), LONGEST_TIMER_MS));
    timer.unref();
    return () => clearTimeout(timer);
  },
};
