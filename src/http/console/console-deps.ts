import type { Registry } from '../../actors/registry.js';
import type { WindowBudget } from '../../actors/window-budget.js';
import { WorkGate } from '../../auth/work-gate.js';
import type { Config } from '../../config.js';
import { LIVE_PAGE_STREAMS } from '../../limits.js';
import { ConsoleAssets } from './assets.js';
import { TableEventStreams } from './table-events.js';

/** What the console's pages share, built once per app (`AppDeps.console`). */
export interface ConsoleDeps {
  assets: ConsoleAssets;
  /** Failed sign-ins per minute, per account (the user a name resolves to) and per peer address (docs/limits.md "Sign-in"), across every node. */
  loginFailures: { byUser: WindowBudget; byAddress: WindowBudget };
  /** Password checks (scrypt) running and waiting at once (`PASSWORD_CHECKS`, `src/http/sign-in-limits.ts`). */
  passwordChecks: WorkGate;
  /** The flag tables' open live-update streams (`/projects/:projectId/events`). */
  tableEvents: TableEventStreams;
}

/** Tracked usernames and addresses at once; past it the oldest window is forgotten. */
const TRACKED = 10_000;

/** The console's parts for one app. */
export function consoleDeps(config: Config, registry: Registry): ConsoleDeps {
  return {
    assets: ConsoleAssets.load(),
    loginFailures: {
      byUser: registry.budget('sign-in-account', { perWindow: config.console.loginFailuresPerUser, windowMs: 60_000, maxKeys: TRACKED }),
      byAddress: registry.budget('sign-in-address', { perWindow: config.console.loginFailuresPerAddress, windowMs: 60_000, maxKeys: TRACKED }),
    },
    passwordChecks: new WorkGate(config.console.passwordChecksRunning, config.console.passwordChecksWaiting),
    tableEvents: new TableEventStreams(registry.feed, LIVE_PAGE_STREAMS),
  };
}
