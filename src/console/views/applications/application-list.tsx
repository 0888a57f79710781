/** @jsxImportSource hono/jsx */
/**
 * The applications page (`/applications`): the SDKs that registered or sent metrics, with their instances,
 * SDK versions, environments and when they were last seen; searched and paged by the server.
 */
import type { ApplicationRow } from '../../../queries/applications.query.js';
import type { ListPage } from '../../../queries/paging.js';
import { Layout, type Frame } from '../../layout.js';
import { When } from '../form-parts.js';
import { ListPager, withQuery } from '../list-pager.js';

/** The address of an application's page. */
export const applicationUrl = (appName: string): string => `/applications/${encodeURIComponent(appName)}`;

/** A short list of values as chips (the first few, then "+n"). */
export function Chips({ values, max = 4 }: { values: readonly string[]; max?: number }) {
  if (values.length === 0) return <span class="muted">—</span>;
  return (
    <span class="chips">
      {values.slice(0, max).map((value) => <span class="chip">{value}</span>)}
      {values.length > max ? <span class="chip chip-more">{`+${values.length - max}`}</span> : null}
    </span>
  );
}

export interface ApplicationListProps {
  frame: Frame;
  q: string | undefined;
  page: ListPage<ApplicationRow>;
}

function Empty({ q }: { q: string | undefined }) {
  if (q !== undefined) {
    return <div class="empty"><h2>No application matches</h2><p class="muted">No registered application has a name holding “{q}”.</p><p><a class="button" href="/applications">Show every application</a></p></div>;
  }
  return (
    <div class="empty">
      <h2>No applications yet</h2>
      <p class="muted">An application appears here once its SDK registers (<code>POST /api/client/register</code>) or sends usage metrics (<code>POST /api/client/metrics</code>) with a client token.</p>
    </div>
  );
}

/** The whole page. */
export function ApplicationList({ frame, q, page }: ApplicationListProps) {
  return (
    <Layout title="Applications" current="applications" {...frame}>
      <div class="page-header">
        <div>
          <h1>Applications</h1>
          <p class="muted">The SDKs that registered with this service or reported which flags they evaluated.</p>
        </div>
      </div>
      <section class="card list-card" aria-labelledby="apps-title">
        <div class="list-head">
          <h2 id="apps-title">Registered applications</h2>
          <form method="get" action="/applications" class="list-search" role="search" aria-label="Search applications">
            <label for="apps-q" class="sr-only">Application name</label>
            <input id="apps-q" type="search" name="q" value={q ?? ''} placeholder="Application name" maxlength={100} autocomplete="off" />
            <button type="submit" class="button">Search</button>
          </form>
        </div>
        {page.total === 0 ? <Empty q={q} /> : (
          <>
            <div class="table-scroll list-scroll" tabindex={0} role="region" aria-labelledby="apps-title">
              <table class="data-table list-table">
                <thead>
                  <tr><th scope="col">Application</th><th scope="col">Instances</th><th scope="col">SDK versions</th><th scope="col">Environments</th><th scope="col">Last seen</th></tr>
                </thead>
                <tbody>
                  {page.rows.map((app) => (
                    <tr>
                      <th scope="row" class="list-name"><a href={applicationUrl(app.appName)}>{app.appName}</a></th>
                      <td class="num" data-label="Instances">{app.instances.toLocaleString('en-US')}</td>
                      <td data-label="SDK versions"><Chips values={app.sdkVersions} max={2} /></td>
                      <td data-label="Environments"><Chips values={app.environments} /></td>
                      <td class="nowrap" data-label="Last seen"><When at={app.seenAt} /></td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <ListPager list={page}
              href={(n) => withQuery('/applications', { q, page: n })} noun={['application', 'applications']} />
          </>
        )}
      </section>
    </Layout>
  );
}
