import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Clock } from '../../src/scheduling/clock.js';

/**
 * Resolves once the wall clock reads later than `moment` (ms since the epoch, or an ISO time), giving the
 * event loop a turn between two looks: a wait on the clock itself, for tests that need two writes to get
 * different milliseconds or a time to have passed, where a fixed sleep can wake early or be needlessly long.
 *
 * @example const at = new Date().toISOString(); await clockPast(at); // the next write gets a later time
 */
export async function clockPast(moment: number | string = Date.now()): Promise<void> {
  const limit = typeof moment === 'number' ? moment : Date.parse(moment);
  while (Date.now() <= limit) await nextTurn();
}

/**
 * A clock a test moves by hand: `now` stays where it is put, and a timer fires when the clock is moved past it
 * (never on its own), so a schedule falls without the test waiting for it.
 *
 * @example const clock = new ManualClock(Date.parse('2026-05-05T05:00:00Z')); clock.advance(60 * 60_000);
 */
export class ManualClock implements Clock {
  private timers: { at: number; fire: () => void; cancelled: boolean }[] = [];

  constructor(private current: number) {}

  now(): number {
    return this.current;
  }

  setTimer(ms: number, fire: () => void): () => void {
    const timer = { at: this.current + Math.max(0, ms), fire, cancelled: false };
    this.timers.push(timer);
    return () => { timer.cancelled = true; };
  }

  /** Moves the clock forward by `ms` and fires the timers it passes, earliest first. */
  advance(ms: number): void {
    this.current += ms;
    const due = this.timers.filter((t) => !t.cancelled && t.at <= this.current).sort((a, b) => a.at - b.at);
    this.timers = this.timers.filter((t) => !t.cancelled && t.at > this.current);
    for (const timer of due) timer.fire();
  }

  /** ISO text of `now` plus `ms` (a moment to schedule at). */
  iso(ms = 0): string {
    return new Date(this.current + ms).toISOString();
  }
}
