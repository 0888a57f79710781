/** @jsxImportSource hono/jsx */
/**
 * The applications page (`/applications`): the SDKs that registered or sent metrics, with their instances,
 * SDK versions, environments and when they were last seen; searched and paged by the server.
 */
import type { ApplicationRow } from '../../../queries/applications.query.js';
import type { ListPage } from '../../../queries/paging.js';
import { Layout } from '../../layout.js';
import { When } from '../form-parts.js';
import { ListCard, ListEmpty, ListRows, ListSearch, withQuery } from '../list.js';

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
  q: string | undefined;
  page: ListPage<ApplicationRow>;
}

function Empty({ q }: { q: string | undefined }) {
  if (q !== undefined) {
    return <ListEmpty title="No application matches"><p class="muted">No registered application has a name holding “{q}”.</p><p><a class="button" href="/applications">Show every application</a></p></ListEmpty>;
  }
  return (
    <ListEmpty title="No applications yet">
      <p class="muted">An application appears here once its SDK registers (<code>POST /api/client/register</code>) or sends usage metrics (<code>POST /api/client/metrics</code>) with a client token.</p>
    </ListEmpty>
  );
}

/** The whole page. */
export function ApplicationList({ q, page }: ApplicationListProps) {
  return (
    <Layout title="Applications" current="applications">
      <div class="page-header">
        <div>
          <h1>Applications</h1>
          <p class="muted">The SDKs that registered with this service or reported which flags they evaluated.</p>
        </div>
      </div>
      <ListCard id="apps-title" title="Registered applications"
        head={<ListSearch action="/applications" q={q} id="apps-q" class="list-search" label="Application name" name="Search applications" />}>
        <ListRows list={page} empty={<Empty q={q} />} labelledBy="apps-title" class="list-table" scroll="list-scroll"
          columns={['Application', 'Instances', 'SDK versions', 'Environments', 'Last seen']}
          href={(n) => withQuery('/applications', { q, page: n })} noun={['application', 'applications']}
          row={(app) => (
            <tr>
              <th scope="row" class="list-name"><a href={applicationUrl(app.appName)}>{app.appName}</a></th>
              <td class="num" data-label="Instances">{app.instances.toLocaleString('en-US')}</td>
              <td data-label="SDK versions"><Chips values={app.sdkVersions} max={2} /></td>
              <td data-label="Environments"><Chips values={app.environments} /></td>
              <td class="nowrap" data-label="Last seen"><When at={app.seenAt} /></td>
            </tr>
          )} />
      </ListCard>
    </Layout>
  );
}
