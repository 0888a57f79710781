/** @jsxImportSource hono/jsx */
/**
 * The applications (`/applications`) and an application's page (`/applications/:appName`), read from the same
 * usage data as `GET /api/admin/metrics/applications` and its detail (`READ`).
 */
import { applicationByName } from '../../queries/usage.query.js';
import { applicationFlags, applicationPage } from '../../queries/applications.query.js';
import { pageOf } from '../../queries/paging.js';
import { ApplicationParamsSchema } from '../../schemas/metrics.schema.js';
import { ApplicationPageQuerySchema, INSIGHT_PAGE_SIZE, ListPageQuerySchema } from '../../schemas/insight-pages.schema.js';
import { apiError } from '../../http/errors.js';
import { definePage } from '../page.js';
import { renderPage } from '../render.js';
import { ApplicationList } from '../views/applications/application-list.js';
import { ApplicationPage } from '../views/applications/application-page.js';

export const applicationPages = [
  definePage({
    method: 'get', path: '/applications', permission: 'READ',
    summary: 'The registered applications (search and page in the query string)', query: ListPageQuerySchema,
    handle: ({ c, deps, query }) => renderPage(c, (
      <ApplicationList q={query.q} page={applicationPage(deps.registry, query, INSIGHT_PAGE_SIZE)} />
    )),
  }),
  definePage({
    method: 'get', path: '/applications/:appName', permission: 'READ',
    summary: 'An application: its registration, instances and the flags it reads', params: ApplicationParamsSchema, query: ApplicationPageQuerySchema,
    errors: ['NotFoundError'],
    handle: ({ c, deps, params, query }) => {
      const found = applicationByName(deps.registry, params.appName);
      if (!found.ok) throw apiError('NotFoundError', found.error.message);
      const { app, instances } = found.value;
      return renderPage(c, (
        <ApplicationPage app={app}
          instances={pageOf(instances, query.instances, INSIGHT_PAGE_SIZE)}
          flags={pageOf(applicationFlags(deps.registry, app.appName), query.flags, INSIGHT_PAGE_SIZE)} />
      ));
    },
  }),
];
