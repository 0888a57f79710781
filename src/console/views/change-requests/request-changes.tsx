/** @jsxImportSource hono/jsx */
/**
 * The changes of a request, grouped by flag (segment changes apart): each with its heading, the history's diff of
 * what it does, its conflict when its target moved since it was added (the values when added, now and proposed),
 * and, while the request takes changes, a button to discard it.
 */
import type { Change } from '../../../domain/change-request.js';
import type { ChangeConflict } from '../../../domain/change-request-conflicts.js';
import { flagUrl } from '../flags/flag-urls.js';
import { idOf, PostButton, When } from '../form-parts.js';
import { ChangeList } from '../history/change-list.js';
import { personWords } from '../history/entry-words.js';
import { changeDiff, changeTitle, valuesDiff, valueWords } from './change-diff.js';
import { changeRequestUrl } from './change-request-urls.js';
import type { RequestPageModel } from './request-model.js';

/** A diff, or what an empty one means here. */
function Moved({ diff, none }: { diff: ReturnType<typeof valuesDiff>; none: string }) {
  return diff.length > 0 ? <ChangeList changes={diff} /> : <span class="muted">{none}</span>;
}

/**
 * A change's conflict: why, then its three values as two diffs (what moved since it was added: when added → now;
 * what applying it now does: now → proposed), and the values themselves as JSON for whoever needs them exact.
 */
function Conflict({ conflict, change, environment }: { conflict: ChangeConflict; change: Change; environment: string }) {
  return (
    <div class="cr-conflict">
      <p class="cr-conflict-title"><strong>Conflict:</strong> {conflict.conflict}</p>
      <dl class="cr-conflict-values">
        <div><dt>Since it was added</dt><dd><Moved diff={valuesDiff(change, environment, conflict.whenAdded, conflict.now)} none="Nothing it changes moved." /></dd></div>
        <div><dt>Applying it now</dt><dd><Moved diff={valuesDiff(change, environment, conflict.now, conflict.proposed)} none="Changes nothing." /></dd></div>
      </dl>
      <details class="cr-conflict-json">
        <summary>The values when added, now and proposed</summary>
        <dl class="cr-conflict-values">
          <div><dt>When added</dt><dd><code>{valueWords(conflict.whenAdded)}</code></dd></div>
          <div><dt>Now</dt><dd><code>{valueWords(conflict.now)}</code></dd></div>
          <div><dt>Proposed</dt><dd><code>{valueWords(conflict.proposed)}</code></dd></div>
        </dl>
      </details>
    </div>
  );
}

function ChangeItem({ model, change }: { model: RequestPageModel; change: Change }) {
  const { request } = model;
  const id = idOf('change', String(change.id));
  const conflict = model.conflicts?.changes.find((c) => c.changeId === change.id);
  const diff = changeDiff(change, request.environment);
  const action = `${changeRequestUrl(model.project.id, request.id)}/changes/${change.id}/discard`;
  return (
    <li class={conflict ? 'cr-change cr-change-conflict' : 'cr-change'} id={id} aria-labelledby={`${id}-title`}>
      <div class="cr-change-head">
        <h4 id={`${id}-title`}>{changeTitle(change)}</h4>
        {model.may.discardChange ? <PostButton action={action} label="Discard" class="button button-small button-secondary" ariaLabel={`Discard the change: ${changeTitle(change)}`} /> : null}
      </div>
      <p class="muted small">{'Added by '}{personWords(change.createdBy, model.people)}{', '}<When at={change.createdAt} /></p>
      {diff.length > 0 ? <ChangeList changes={diff} label={`What "${changeTitle(change)}" changes`} /> : <p class="muted">Nothing moves: the value proposed is the value it had.</p>}
      {conflict ? <Conflict conflict={conflict} change={change} environment={request.environment} /> : null}
    </li>
  );
}

/** The request's changes, a card per flag and one for its segments. */
export function RequestChanges({ model }: { model: RequestPageModel }) {
  const { request, project } = model;
  const flags = [...new Set(request.changes.flatMap((c) => (c.feature ? [c.feature] : [])))];
  const segments = request.changes.filter((c) => !c.feature);
  if (request.changes.length === 0) {
    return <div class="card empty"><h3>No changes</h3><p class="muted">This request holds no change yet. Switches and strategy changes on {request.environment} add to it.</p></div>;
  }
  return (
    <div class="cr-groups">
      {flags.map((flag) => {
        const id = idOf('flag', flag);
        const conflict = model.conflicts?.features.get(flag);
        return (
          <section class="card cr-group" aria-labelledby={`${id}-title`}>
            <h3 id={`${id}-title`}><a href={flagUrl(project.id, flag)}>{flag}</a></h3>
            {conflict ? <p class="cr-conflict cr-conflict-title"><strong>Conflict:</strong> {conflict}</p> : null}
            <ol class="cr-changes">{request.changes.filter((c) => c.feature === flag).map((change) => <ChangeItem model={model} change={change} />)}</ol>
          </section>
        );
      })}
      {segments.length > 0 ? (
        <section class="card cr-group" aria-labelledby="segments-title">
          <h3 id="segments-title">Segments</h3>
          <ol class="cr-changes">{segments.map((change) => <ChangeItem model={model} change={change} />)}</ol>
        </section>
      ) : null}
    </div>
  );
}
