/** The addresses of a project's change requests in the console. */

/** The project's change requests page. */
export const changeRequestsUrl = (projectId: string): string => `/projects/${encodeURIComponent(projectId)}/change-requests`;

/** One change request's page. */
export const changeRequestUrl = (projectId: string, id: number): string => `${changeRequestsUrl(projectId)}/${id}`;

/**
 * `path` (a page of the project) saying that a change went to request `id` (`?done=drafted&request=<id>`), with
 * `anchor` to scroll to; the page reads the request back from the project, never words from the address.
 */
export const draftedUrl = (path: string, id: number, anchor = ''): string =>
  `${path}${path.includes('?') ? '&' : '?'}done=drafted&request=${id}${anchor ? `#${anchor}` : ''}`;
