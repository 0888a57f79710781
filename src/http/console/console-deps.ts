import type { CommittedFeed } from '../../actors/committed-feed.js';
import { WorkGate } from '../../auth/work-gate.js';
import type { Config } from '../../config.js';
import { LIVE_PAGE_STREAMS } from '../../limits.js';
import { AddressBudget } from '../address-budget.js';
import { ConsoleAssets } from './assets.js';
import { TableEventStreams } from './table-events.js';

/** What the console's pages share, built once per app (`AppDeps.console`). */
export interface ConsoleDeps {
  assets: ConsoleAssets;
  /** Failed sign-ins per minute, per account (the user a name resolves to) and per peer address (docs/limits.md "Sign-in"). */
  loginFailures: { byUser: AddressBudget; byAddress: AddressBudget };
  /** Password checks (scrypt) running and waiting at once (`PASSWORD_CHECKS`, `src/http/sign-in-limits.ts`). */
  passwordChecks: WorkGate;
  /** The flag tables' open live-update streams (`/projects/:projectId/events`). */
  tableEvents: TableEventStreams;
}

/** Tracked usernames and addresses at once; past it the oldest window is forgotten. */
const TRACKED = 10_000;

/** The console's parts for one app. */
export function consoleDeps(config: Config, feed: CommittedFeed): ConsoleDeps {
  return {
    assets: ConsoleAssets.load(),
    loginFailures: {
      byUser: new AddressBudget(config.console.loginFailuresPerUser, 60_000, TRACKED),
      byAddress: new AddressBudget(config.console.loginFailuresPerAddress, 60_000, TRACKED),
    },
    passwordChecks: new WorkGate(config.console.passwordChecksRunning, config.console.passwordChecksWaiting),
    tableEvents: new TableEventStreams(feed, LIVE_PAGE_STREAMS),
  };
}
