import type { CommittedFeed } from '../../actors/committed-feed.js';
import type { Config } from '../../config.js';
import { AddressBudget } from '../address-budget.js';
import { ConsoleAssets } from './assets.js';
import { TableEventStreams } from './table-events.js';

/** What the console's pages share, built once per app (`AppDeps.console`). */
export interface ConsoleDeps {
  assets: ConsoleAssets;
  /** Failed sign-ins per minute, per username (lower-cased) and per peer address (docs/limits.md "Sign-in"). */
  loginFailures: { byUser: AddressBudget; byAddress: AddressBudget };
  /** The flag tables' open live-update streams (`/projects/:projectId/events`). */
  tableEvents: TableEventStreams;
}

/** Tracked usernames and addresses at once; past it the oldest window is forgotten. */
const TRACKED = 10_000;
/** Live flag-table streams open at once (one per open project page). */
const LIVE_TABLES = 1000;

/** The console's parts for one app. */
export function consoleDeps(config: Config, feed: CommittedFeed): ConsoleDeps {
  return {
    assets: ConsoleAssets.load(),
    loginFailures: {
      byUser: new AddressBudget(config.console.loginFailuresPerUser, 60_000, TRACKED),
      byAddress: new AddressBudget(config.console.loginFailuresPerAddress, 60_000, TRACKED),
    },
    tableEvents: new TableEventStreams(feed, LIVE_TABLES),
  };
}
