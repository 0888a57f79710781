/**
 * A budget of work per key (a peer address, an account) over fixed windows of time, in the memory of one
 * process: what `window-budget.ts` counts with on a store one process owns. It counts a cost per call (the
 * tokens a call asks to check), which the request-counting rate limiters for Hono do not; the bound on keys
 * keeps its memory fixed.
 */

/** The state of one address's window. */
interface Window {
  start: number;
  used: number;
}

/** Costs taken per address and window; built once per app (through `windowBudget`), never shared between apps. */
export class AddressBudget {
  /** In order of window start: a window that starts again is moved to the end, so the first is the oldest. */
  readonly #windows = new Map<string, Window>();

  /**
   * @param perWindow cost one address may spend in one window
   * @param windowMs length of a window
   * @param maxAddresses addresses tracked at once; past it the oldest window is forgotten (its address starts afresh)
   */
  constructor(readonly perWindow: number, readonly windowMs: number, readonly maxAddresses: number) {}

  /**
   * Takes `cost` from the budget of `address`: 0 when granted, else the milliseconds until its window ends
   * (nothing is taken then).
   *
   * @example const wait = budget.take('10.0.0.7', tokens.length); if (wait > 0) answer429(Math.ceil(wait / 1000));
   */
  take(address: string, cost: number, now = Date.now()): number {
    let window = this.#windows.get(address);
    if (window === undefined || now - window.start >= this.windowMs) {
      if (window !== undefined) this.#windows.delete(address);
      this.#forgetOldest(now);
      window = { start: now, used: 0 };
      this.#windows.set(address, window);
    }
    if (window.used + cost > this.perWindow) return Math.max(1, window.start + this.windowMs - now);
    window.used += cost;
    return 0;
  }

  /**
   * Gives back `cost` taken from `address` at `takenAt` (a charge made before the work, returned when the work
   * turned out not to count); nothing when that window has ended since.
   *
   * @example const at = Date.now(); if (budget.take(user, 1, at) === 0 && (await check()).ok) budget.giveBack(user, 1, at);
   */
  giveBack(address: string, cost: number, takenAt: number, now = Date.now()): void {
    const window = this.#windows.get(address);
    if (window === undefined || window.start > takenAt || now - window.start >= this.windowMs) return;
    window.used = Math.max(0, window.used - cost);
  }

  /**
   * The milliseconds until `address` may spend again when its window's budget is used up, else 0; takes nothing.
   *
   * @example if (failures.spent(username) > 0) answer429()
   */
  spent(address: string, now = Date.now()): number {
    const window = this.#windows.get(address);
    if (window === undefined || now - window.start >= this.windowMs || window.used < this.perWindow) return 0;
    return Math.max(1, window.start + this.windowMs - now);
  }

  /** Drops windows that have ended, and the oldest ones while the map is full. */
  #forgetOldest(now: number): void {
    for (const [address, window] of this.#windows) {
      if (now - window.start < this.windowMs && this.#windows.size < this.maxAddresses) return;
      this.#windows.delete(address);
    }
  }
}
