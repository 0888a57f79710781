import type { FlagEvent } from './events.js';
import type { Flag } from './types.js';

/*
 * The `flagBytes` limit without serializing the whole flag on every change (that was ~10 µs of each strategy
 * added or switch toggled). A flag record is never changed in place, so an upper bound of its stored size is
 * kept by identity. A change can add to a flag only what its event carries, plus a few bytes no event text
 * holds (an environment entry's frame, a `true` turned `false`, a version's digits): {@link slack}. Only when
 * that bound passes the limit is the flag measured, so a decision near the limit is exact.
 */
const bounds = new WeakMap<Flag, number>();

/** Bytes a change may add beyond its event's text: a new environment entry's frame, and per environment a flipped flag. */
const slack = (flag: Flag): number => {
  let environments = 0;
  for (const _ in flag.environments) environments += 1;
  return 256 + 8 * environments;
};

/** The flag's stored size: the UTF-8 bytes of its JSON. Remembered as its bound. */
export function measureFlag(flag: Flag): number {
  const size = Buffer.byteLength(JSON.stringify(flag));
  bounds.set(flag, size);
  return size;
}

/**
 * The size of `after` (the flag `event` built from `before`) when it may be over `limit`, measured exactly;
 * undefined when its bound shows it is within the limit.
 *
 * @example const over = sizeOver(after, limits.flagBytes, { before: flag, event }); if (over !== undefined) refuse(...)
 */
export function sizeOver(after: Flag, limit: number, change?: { before: Flag; event: FlagEvent }): number | undefined {
  const prior = change ? bounds.get(change.before) : undefined;
  if (prior !== undefined) {
    const bound = prior + Buffer.byteLength(JSON.stringify(change!.event)) + slack(after);
    if (bound <= limit) {
      bounds.set(after, bound);
      return undefined;
    }
  }
  const size = measureFlag(after);
  return size > limit ? size : undefined;
}
