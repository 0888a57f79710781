/** @jsxImportSource hono/jsx */
/**
 * What the project's pages say about the person's change requests: a banner while they have one that still takes
 * changes (a link to each), and the confirmation of a change that went to one instead of being made.
 */
import type { OpenDraft } from '../../change-drafts.js';
import { changeRequestUrl } from './change-request-urls.js';
import { requestName } from './state-badge.js';

const changes = (n: number) => `${n} ${n === 1 ? 'change' : 'changes'}`;

/**
 * The banner of the person's open requests (nothing when they have none).
 *
 * @example <DraftBanner projectId="default" drafts={openDraftsOf(state, principal)} />
 */
export function DraftBanner({ projectId, drafts }: { projectId: string; drafts: readonly OpenDraft[] | undefined }) {
  if (!drafts || drafts.length === 0) return null;
  return (
    <aside class="draft-banner" aria-labelledby="draft-banner-title">
      <h2 id="draft-banner-title" class="draft-banner-title">{drafts.length === 1 ? 'Your change request' : 'Your change requests'}</h2>
      <ul class="draft-banner-list">
        {drafts.map((d) => (
          <li>
            <a href={changeRequestUrl(projectId, d.id)}>{requestName(d)}</a>
            {' '}<span class="muted">{`${d.environment} · ${d.state} · ${changes(d.changes)}`}</span>
          </li>
        ))}
      </ul>
    </aside>
  );
}

/**
 * "Added to your change request #N" with its link, said as a status, or nothing.
 *
 * @example <DraftedNotice projectId="default" drafted={draftedNamed(state, principal, done, request)} />
 */
export function DraftedNotice({ projectId, drafted }: { projectId: string; drafted: OpenDraft | undefined }) {
  if (!drafted) return null;
  return (
    <p class="alert alert-info page-notice" role="status">
      {'Added to your '}
      <a href={changeRequestUrl(projectId, drafted.id)}>{`change request #${drafted.id}`}</a>
      {`: ${drafted.environment} takes changes through change requests, so it takes effect once the request is approved and applied.`}
    </p>
  );
}
