/** @jsxImportSource hono/jsx */
/**
 * An application's page (`/applications/:appName`): what it registered (SDK, strategies, projects and
 * environments), its running instances and the flags it reported in the last 48 hours, each list paged.
 */
import type { AppFlag } from '../../../queries/applications.query.js';
import type { ListPage } from '../../../queries/paging.js';
import type { ClientApplication, ClientInstance } from '../../../domain/client-applications.js';
import { Layout } from '../../layout.js';
import { When } from '../form-parts.js';
import { flagUrl } from '../flags/flag-urls.js';
import { ListCard, ListRows, withQuery } from '../list.js';
import { applicationUrl, Chips } from './application-list.js';

export interface ApplicationPageProps {
  app: ClientApplication;
  instances: ListPage<ClientInstance>;
  flags: ListPage<AppFlag>;
}

function Facts({ app }: { app: ClientApplication }) {
  return (
    <section class="card" aria-labelledby="app-facts">
      <h2 id="app-facts" class="sr-only">Registration</h2>
      <dl class="facts">
        <div><dt>Last seen</dt><dd><When at={app.seenAt} /></dd></div>
        <div><dt>First seen</dt><dd><When at={app.createdAt} /></dd></div>
        <div><dt>SDK</dt><dd>{app.sdkVersion ?? <span class="muted">not said</span>}</dd></div>
      </dl>
      <h3 class="form-subtitle">Strategies it implements</h3>
      <p><Chips values={app.strategies} max={12} /></p>
      <h3 class="form-subtitle">Projects and environments its tokens read</h3>
      {app.usage.length === 0 ? <p class="muted">None recorded.</p> : (
        <ul class="plain-list">
          {app.usage.map((u) => <li><strong>{u.project === '*' ? 'every project' : u.project}</strong>{': '}{u.environments.join(', ')}</li>)}
        </ul>
      )}
    </section>
  );
}

/** The whole page. */
export function ApplicationPage({ app, instances, flags }: ApplicationPageProps) {
  const here = applicationUrl(app.appName);
  return (
    <Layout title={`${app.appName} · Applications`} current="applications">
      <nav aria-label="Breadcrumb" class="breadcrumb">
        <ol><li><a href="/applications">Applications</a></li><li><span aria-current="page">{app.appName}</span></li></ol>
      </nav>
      <div class="page-header"><div><h1 class="flag-title">{app.appName}</h1></div></div>
      <div class="stack">
        <Facts app={app} />
        <ListCard id="app-flags" title="Flags it reads" head={<p class="muted small">Reported in its usage metrics in the last 48 hours.</p>}>
          <ListRows list={flags} empty={<p class="list-empty muted">No flag reported in the last 48 hours.</p>}
            labelledBy="app-flags" class="list-table" scroll="list-scroll" columns={['Flag', 'Project', 'Last reported']}
            href={(n) => withQuery(here, { instances: instances.page === 1 ? undefined : instances.page, flags: n === 1 ? undefined : n })} noun={['flag', 'flags']}
            row={(f) => (
              <tr>
                <th scope="row" class="list-name"><a href={flagUrl(f.project, f.flag)}>{f.flag}</a></th>
                <td data-label="Project">{f.project}</td>
                <td class="nowrap" data-label="Last reported"><When at={f.seenAt} /></td>
              </tr>
            )} />
        </ListCard>
        <ListCard id="app-instances" title="Instances" head={<p class="muted small">Running SDKs, most recently seen first; one unseen for 48 hours is dropped.</p>}>
          <ListRows list={instances} empty={<p class="list-empty muted">No instance seen in the last 48 hours.</p>}
            labelledBy="app-instances" class="list-table" scroll="list-scroll" columns={['Instance', 'SDK version', 'Environment', 'Address', 'Last seen']}
            href={(n) => withQuery(here, { instances: n === 1 ? undefined : n, flags: flags.page === 1 ? undefined : flags.page })} noun={['instance', 'instances']}
            row={(i) => (
              <tr>
                <th scope="row" class="list-name"><code>{i.instanceId}</code></th>
                <td data-label="SDK version">{i.sdkVersion ?? <span class="muted">—</span>}</td>
                <td data-label="Environment">{i.environment}</td>
                <td data-label="Address">{i.clientIp ?? <span class="muted">—</span>}</td>
                <td class="nowrap" data-label="Last seen"><When at={i.seenAt} /></td>
              </tr>
            )} />
        </ListCard>
      </div>
    </Layout>
  );
}
