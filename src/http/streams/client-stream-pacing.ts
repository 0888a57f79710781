/**
 * How the client streams' fan-outs are paced (`ClientStreams`): each runs in slices of about
 * {@link FANOUT_SLICE_MS} ms of the event loop, and while writes keep coming the next starts only after a
 * spacing that grows with the last one's busy time and with the rate of changes.
 */

/** Shortest time from the end of a fan-out to the start of the next, ms: commits within it go out as one message. */
export const MIN_FANOUT_SPACING_MS = 2;
/**
 * The longest a fan-out holds the event loop at a time, ms: it writes as many connections per turn of the loop
 * as the last fan-out managed in this time (a socket write on loopback also runs the receiving side's TCP work),
 * so a request waits behind about this much of a fan-out, never behind all of it.
 */
export const FANOUT_SLICE_MS = 1;
/** Connections written per turn of the loop before a fan-out has measured its speed (and at least this many after). */
export const FANOUT_CHUNK = 32;
/**
 * The spacing of fan-outs while writes keep coming, in fan-out busy times: the streams take a few per cent of
 * the loop, so admin writes keep their latency while thousands of streams are open (docs/scaling.md), and a
 * change under a flood of writes waits up to ~40 fan-outs' time. A change after a quiet spell is not spaced.
 */
export const FANOUT_SPACING_FACTOR = 40;
/**
 * Committed changes a second above which writes are a flood (a bulk script, an import): the spacing grows with
 * the rate, up to {@link FANOUT_FLOOD_MAX_MULTIPLE} times, so the writes keep their latency; a change then waits
 * for the streams about one SDK poll interval at most. Below this rate nothing changes.
 */
export const FANOUT_FLOOD_RATE = 1000;
export const FANOUT_FLOOD_MAX_MULTIPLE = 5;

/**
 * When the next fan-out may start after one that took `busyMs` while writes kept coming at `changesPerSecond`:
 * {@link FANOUT_SPACING_FACTOR} times its busy time, times the flood's multiple.
 *
 * @example fanOutSpacing(60, 10) // 2400: 40 × 60 ms
 * @example fanOutSpacing(60, 20_000) // 12000: 5 × 40 × 60 ms
 */
export function fanOutSpacing(busyMs: number, changesPerSecond: number): number {
  // Not a number (two starts in the same instant with no change between): no flood.
  const rate = changesPerSecond > 0 ? changesPerSecond : 0;
  const multiple = Math.min(FANOUT_FLOOD_MAX_MULTIPLE, Math.max(1, rate / FANOUT_FLOOD_RATE));
  return Math.max(MIN_FANOUT_SPACING_MS, FANOUT_SPACING_FACTOR * multiple * busyMs);
}

/**
 * Runs work over many items about {@link FANOUT_SLICE_MS} ms worth at a time, one slice per turn of the event
 * loop, so a request waits behind one slice at most. Each run learns how long an item took, and the next
 * run's slices hold as many items as fit in that time (at least {@link FANOUT_CHUNK}).
 */
export class Slices {
  /** What the last run took per item it wrote to, ms (its busy time, socket writes included). */
  private msPerItem = Number.POSITIVE_INFINITY;

  /**
   * Runs `each` over `items` in slices, then `done` with how many `each` wrote to (returned true for), the
   * busy time (the slices' JavaScript and socket writes) and when it ended.
   */
  run<T>(items: readonly T[], each: (item: T) => boolean, done: (sent: number, busy: number, end: number) => void): void {
    let busy = 0;
    let sent = 0;
    const perSlice = Math.max(FANOUT_CHUNK, Math.floor(FANOUT_SLICE_MS / this.msPerItem));
    const slice = (from: number) => {
      const start = performance.now();
      const to = Math.min(items.length, from + perSlice);
      for (let i = from; i < to; i += 1) if (each(items[i]!)) sent += 1;
      // Node hands a response's writes to the kernel when it uncorks the socket, in a tick queued by the first
      // write: this tick runs after those, so the slice's time includes its socket writes.
      process.nextTick(() => {
        const end = performance.now();
        busy += end - start;
        if (to < items.length) setImmediate(() => slice(to));
        else {
          if (sent > 0) this.msPerItem = busy / sent;
          done(sent, busy, end);
        }
      });
    };
    slice(0);
  }
}
