import { renderFirstPage } from './console/flag-table-page.js';
import type { AppDeps } from './route.js';

/**
 * What a start builds in the background once the server listens, so the first reads after a restart do not
 * pay for it: every project's flag-table index and first-page order (`FlagTable.warm`, in slices between
 * requests), then one first page rendered for no one (the largest project's), so its code is compiled. A
 * failure is logged and left to the read that meets it.
 *
 * @example serveApp(app, options, () => void app.warm())
 */
export async function warmUp(deps: AppDeps): Promise<void> {
  const started = performance.now();
  try {
    await deps.flagTable.warm();
    const largest = deps.registry.projectIds().map((id) => deps.registry.project(id)).reduce((a, b) => (b && (!a || b.state.flags.size > a.state.flags.size) ? b : a), undefined);
    if (largest) renderFirstPage(deps, largest);
    deps.log.debug({ ms: Math.round(performance.now() - started) }, 'warm-up: flag tables built');
  } catch (error) {
    deps.log.warn({ err: error }, 'warm-up of the flag tables failed; the first page builds what it needs');
  }
}
