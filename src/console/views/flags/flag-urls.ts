/** The console's addresses the flag table links and posts to (docs: the console's URL scheme). */

const e = encodeURIComponent;

/** The project's flag table, with `search` (from `flagTableSearch`) as its state. */
export const tableUrl = (projectId: string, search = ''): string => `/projects/${e(projectId)}${search ? `?${search}` : ''}`;

/** A flag's own page. */
export const flagUrl = (projectId: string, flag: string): string => `/projects/${e(projectId)}/features/${e(flag)}`;

/** One row of the table as a fragment (to redraw it after a cancel or a live change). */
export const rowUrl = (projectId: string, flag: string): string => `/projects/${e(projectId)}/rows/${e(flag)}`;

/** Where a row's switch posts. */
export const toggleUrl = (projectId: string, flag: string, environment: string): string =>
  `/projects/${e(projectId)}/rows/${e(flag)}/environments/${e(environment)}/toggle`;

/** Where the bulk bar posts. */
export const bulkUrl = (projectId: string): string => `/projects/${e(projectId)}/bulk`;

/** Where the new-flag form posts. */
export const newFlagUrl = (projectId: string): string => `/projects/${e(projectId)}/features`;

/** The project's history page (another page of the console). */
export const historyUrl = (projectId: string): string => `/projects/${e(projectId)}/history`;

/** The table's live updates (server-sent events). */
export const eventsUrl = (projectId: string): string => `/projects/${e(projectId)}/events`;
