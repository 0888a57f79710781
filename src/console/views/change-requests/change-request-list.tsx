/** @jsxImportSource hono/jsx */
/**
 * A project's change requests (`/projects/:projectId/change-requests`): "Waiting for me" (what the person can
 * approve or apply), then the open ones by state (Draft, In review, Approved, Scheduled) and the closed ones,
 * paged. Each section is a card with the one list skeleton (`list-table`: rows as cards on a phone).
 */
import type { ChangeRequest } from '../../../domain/change-request.js';
import type { ListPage } from '../../../queries/paging.js';
import { Layout } from '../../layout.js';
import { ListCard, ListEmpty, ListPager, ListSearch, ListTable, withQuery } from '../list.js';
import { When } from '../form-parts.js';
import { personWords } from '../history/entry-words.js';
import { Notice } from '../notice.js';
import { ProjectNav } from '../project-nav.js';
import { changeRequestsUrl, changeRequestUrl } from './change-request-urls.js';
import { requestName, StateBadge } from './state-badge.js';

/** The open states, each a section of its own, in the order a request moves through them. */
export const OPEN_SECTIONS = [
  { state: 'Draft', title: 'Drafts', empty: 'No drafts.' },
  { state: 'In review', title: 'In review', empty: 'Nothing waits for review.' },
  { state: 'Approved', title: 'Approved', empty: 'Nothing approved waits to be applied.' },
  { state: 'Scheduled', title: 'Scheduled', empty: 'Nothing is scheduled.' },
] as const;

export interface ChangeRequestListProps {
  project: { id: string; name: string };
  /** What the viewer can approve or apply now. */
  waiting: readonly ChangeRequest[];
  /** The open requests (newest first), the search applied. */
  open: readonly ChangeRequest[];
  /** A page of the closed ones (Applied, Cancelled, Rejected), newest first. */
  closed: ListPage<ChangeRequest>;
  q: string;
  people: ReadonlyMap<string, string>;
  notice?: string | undefined;
}

const changes = (n: number) => `${n} ${n === 1 ? 'change' : 'changes'}`;

/** When a request last moved (its state's timestamp), or when it was created. */
const movedAt = (r: ChangeRequest): string => r.stateTimestamps[r.state] ?? r.createdAt;

function Rows({ projectId, requests, people, label }: { projectId: string; requests: readonly ChangeRequest[]; people: ReadonlyMap<string, string>; label: string }) {
  return (
    <ListTable class="list-table cr-table" label={label} columns={['Change request', 'Environment', 'State', 'Author', 'Changes', 'Updated']}>
      {requests.map((r) => (
        <tr>
          <th scope="row" class="list-name"><a href={changeRequestUrl(projectId, r.id)}>{requestName(r)}</a></th>
          <td data-label="Environment">{r.environment}</td>
          <td data-label="State"><StateBadge request={r} /></td>
          <td data-label="Author">{personWords(r.createdBy, people)}</td>
          <td data-label="Changes" class="num">{changes(r.changes.length)}</td>
          <td data-label="Updated" class="nowrap"><When at={movedAt(r)} /></td>
        </tr>
      ))}
    </ListTable>
  );
}

/** The whole page. */
export function ChangeRequestList({ project, waiting, open, closed, q, people, notice }: ChangeRequestListProps) {
  const base = changeRequestsUrl(project.id);
  return (
    <Layout title={`Change requests · ${project.name}`} current="projects">
      <nav aria-label="Breadcrumb" class="breadcrumb">
        <ol><li><a href="/projects">Projects</a></li><li><a href={`/projects/${encodeURIComponent(project.id)}`}>{project.name}</a></li><li><span aria-current="page">Change requests</span></li></ol>
      </nav>
      <div class="page-header">
        <div>
          <h1>Change requests</h1>
          <p class="muted">Changes to protected environments, reviewed and then applied together. A switch or strategy change on such an environment adds to your draft.</p>
        </div>
      </div>
      <ProjectNav projectId={project.id} projectName={project.name} current="change-requests" />
      <Notice notice={notice} />
      <ListSearch action={base} q={q} label="Search change requests by title, environment or flag" placeholder="Search by title, environment or flag" id="cr-search" class="def-search cr-search" clear />
      <ListCard id="cr-waiting" title={<>Waiting for me <span class="muted">({waiting.length})</span></>}>
        {waiting.length === 0
          ? <p class="list-empty muted">Nothing waits for you: no request you can approve or apply.</p>
          : <Rows projectId={project.id} requests={waiting} people={people} label="Waiting for me" />}
      </ListCard>
      {OPEN_SECTIONS.map((section) => {
        const rows = open.filter((r) => r.state === section.state);
        const id = `cr-${section.state.toLowerCase().replace(/\s+/g, '-')}`;
        return (
          <ListCard id={id} title={<>{section.title} <span class="muted">({rows.length})</span></>}>
            {rows.length === 0 ? <p class="list-empty muted">{section.empty}</p> : <Rows projectId={project.id} requests={rows} people={people} label={section.title} />}
          </ListCard>
        );
      })}
      <ListCard id="cr-closed" title={<>Closed <span class="muted">({closed.total})</span></>}>
        {closed.total === 0
          ? <ListEmpty title="Nothing closed yet" level={3}><p class="muted">Applied, cancelled and rejected requests are kept here.</p></ListEmpty>
          : (
            <>
              <Rows projectId={project.id} requests={closed.rows} people={people} label="Closed" />
              <ListPager list={closed} href={(n) => withQuery(base, { q, page: n })} noun={['closed request', 'closed requests']} />
            </>
          )}
      </ListCard>
    </Layout>
  );
}
