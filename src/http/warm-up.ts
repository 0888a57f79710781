import { renderFirstPage } from './console/flag-table-page.js';
import type { AppDeps } from './route.js';

/**
 * What a start builds in the background once the server listens, so the first reads after a restart do not
 * pay for it: every project's flag-table index and first-page order (`FlagTable.warm`, in slices between
 * requests) and one first page rendered for no one (the largest project's), so its code is compiled; then the
 * checkpoints of past views, project after project, those that fit what is left of their byte budget, until it
 * is nine-tenths used (`ProjectPast.warm`; a past view asked meanwhile waits for the checkpoint before its moment). A failure is
 * logged and left to the read that meets it.
 *
 * @example serveApp(app, options, () => void app.warm())
 */
export async function warmUp(deps: AppDeps): Promise<void> {
  const { registry, log } = deps;
  const started = performance.now();
  try {
    await deps.flagTable.warm();
    const largest = registry.projectIds().map((id) => registry.project(id)).reduce((a, b) => (b && (!a || b.state.flags.size > a.state.flags.size) ? b : a), undefined);
    if (largest) renderFirstPage(deps, largest);
    log.debug({ ms: Math.round(performance.now() - started) }, 'warm-up: flag tables built');
  } catch (error) {
    log.warn({ err: error }, 'warm-up of the flag tables failed; the first page builds what it needs');
  }
  for (const id of registry.projectIds()) {
    if (registry.pastCheckpoints.full) break;
    const past = registry.past(id);
    if (past.ok && past.value.fitsBudget()) await past.value.warm();
  }
  log.debug({ ms: Math.round(performance.now() - started), checkpointBytes: registry.pastCheckpoints.bytes }, 'warm-up: past views prepared');
}
