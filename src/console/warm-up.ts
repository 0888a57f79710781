import { renderFirstPage } from './flag-table-page.js';
import type { ConsoleDeps } from './console-deps.js';

/**
 * What a start builds before it listens, so the first console page after a restart is as fast as any other:
 * every project's flag-table index and first-page order (`FlagTable.warm`) and one first page rendered for no
 * one (the largest project's), so its code is compiled. A few hundred milliseconds at 100,000 flags (the start
 * waits for them rather than have the first page and `/health` meanwhile pay for them). A failure is logged
 * and left to the read that meets it.
 *
 * @example await app.prepare(); serveApp(app, options, () => void app.warm())
 */
export async function prepareTables(deps: ConsoleDeps): Promise<void> {
  const { registry, log } = deps;
  const started = performance.now();
  try {
    await deps.flagTable.warm();
    const largest = registry.projectIds().map((id) => registry.project(id)).reduce((a, b) => (b && (!a || b.state.flags.size > a.state.flags.size) ? b : a), undefined);
    if (largest) renderFirstPage(deps, largest);
    log.debug({ ms: Math.round(performance.now() - started) }, 'start: flag tables built');
  } catch (error) {
    log.warn({ err: error }, 'building the flag tables at start failed; the first page builds what it needs');
  }
}

/**
 * What a start builds in the background once it listens: the checkpoints of past views, project after project,
 * those that fit what is left of their byte budget, until it is nine-tenths used (`ProjectPast.warm`; a past
 * view asked meanwhile pauses it, or waits for the checkpoint before its moment).
 *
 * @example serveApp(app, options, () => void app.warm())
 */
export async function warmUp(deps: ConsoleDeps): Promise<void> {
  const { registry, log } = deps;
  const started = performance.now();
  for (const id of registry.projectIds()) {
    if (registry.pastCheckpoints.full) break;
    const past = registry.past(id);
    if (past.ok && past.value.fitsBudget()) await past.value.warm();
  }
  log.debug({ ms: Math.round(performance.now() - started), checkpointBytes: registry.pastCheckpoints.bytes }, 'warm-up: past views prepared');
}
