import { setImmediate as nextTurn } from 'node:timers/promises';

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
