/**
 * Every record the console serves, in one list for the route table (`ROUTES`, `src/app.ts`): its pages
 * (`pages/`) and Unleash's JSON sign-in (`sign-in.routes.ts`).
 */
import type { RouteSpec } from '../http/route.js';
import { accountPages } from './pages/account.pages.js';
import { adminPages } from './pages/admin.pages.js';
import { applicationPages } from './pages/applications.pages.js';
import { archivePages } from './pages/archive.pages.js';
import { changeRequestPages } from './pages/change-requests.pages.js';
import { definitionPages } from './pages/definitions.pages.js';
import { environmentPages } from './pages/environments.pages.js';
import { flagStrategyPages } from './pages/flag-strategy.pages.js';
import { flagSwitchPages } from './pages/flag-switch.pages.js';
import { flagPages } from './pages/flag.pages.js';
import { historyPages } from './pages/history.pages.js';
import { integrationPages } from './pages/integrations.pages.js';
import { loginPages } from './pages/login.pages.js';
import { playgroundPages } from './pages/playground.pages.js';
import { projectFlagsPages } from './pages/project-flags.pages.js';
import { projectSettingsPages } from './pages/project-settings.pages.js';
import { projectPages } from './pages/projects.pages.js';
import { segmentPages } from './pages/segments.pages.js';
import { setPasswordPages } from './pages/set-password.pages.js';
import { stalePages } from './pages/stale.pages.js';
import { tokenPages } from './pages/tokens.pages.js';
import { transferPages } from './pages/transfer.pages.js';
import { userPages } from './pages/users.pages.js';
import { authRoutes } from './sign-in.routes.js';

export const CONSOLE_ROUTES: RouteSpec[] = [
  ...authRoutes,
  ...loginPages,
  ...projectPages,
  ...historyPages,
  ...flagPages,
  ...flagStrategyPages,
  ...projectFlagsPages,
  ...flagSwitchPages,
  ...adminPages,
  ...applicationPages, ...archivePages, ...stalePages, ...transferPages,
  ...definitionPages,
  ...playgroundPages,
  ...userPages, ...setPasswordPages, ...accountPages,
  ...tokenPages,
  ...environmentPages,
  ...segmentPages,
  ...projectSettingsPages,
  ...integrationPages,
  ...changeRequestPages,
];
