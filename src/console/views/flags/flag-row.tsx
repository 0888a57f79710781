/** @jsxImportSource hono/jsx */
/**
 * One flag of the project's table as its own `<tbody>`: the row, and under it (when there is one) the API's
 * refusal or the default-strategy offer for one of its switches. The `<tbody>` is what a switch's answer
 * replaces (htmx `outerHTML`), so the switch always shows what the server holds.
 */
import type { FlagRow, FlagRowEnvironment } from '../../../queries/flag-table/flag-table.query.js';
import type { SwitchOffer as Offer } from '../../../queries/switch-offer.query.js';
import { etagOf } from '../../../http/answers/if-match.js';
import { Csrf } from '../form-parts.js';
import { flagUrl, rowUrl, toggleUrl } from './flag-urls.js';
import { changeRequestUrl } from '../change-requests/change-request-urls.js';
import { SwitchOffer } from './switch-offer.js';

/**
 * What a row shows under itself after a switch: the API's message, the offer to add a strategy first, or the
 * change request the switch went to (an environment that takes the person's changes through requests).
 */
export type RowNote =
  | { kind: 'refused'; environment: string; message: string }
  | { kind: 'drafted'; environment: string; requestId: number }
  | ({ kind: 'offer' } & Offer);

/** What the viewer may do in the rows. */
export interface RowPermissions {
  /** Switch flags (`UPDATE_FEATURE_ENVIRONMENT`); otherwise the switches are shown disabled. */
  toggle: boolean;
  /** Select rows for the bulk bar. */
  select: boolean;
}

export interface FlagRowProps {
  projectId: string;
  row: FlagRow;
  may: RowPermissions;
  /** The table's URL (its state), where a form sent without script comes back to. */
  back: string;
  now: number;
  note?: RowNote | undefined;
}

const MARKS: Record<FlagRow['mark'], string> = { archived: 'Archived', stale: 'Stale', 'potentially-stale': 'Potentially stale', fresh: 'Active' };
const STAGES: Record<FlagRow['stage'], string> = { initial: 'Initial', 'pre-live': 'Pre-live', live: 'Live', completed: 'Completed', archived: 'Archived' };

// One formatter for every row: `toLocaleDateString` with options builds a formatter on each call.
const SHORT_DATE = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

/** A date as the table shows it: `27 Nov 2026`. */
export function shortDate(iso: string): string {
  return SHORT_DATE.format(new Date(iso));
}

/** How long ago `iso` was at `now`, in the largest whole unit: `5 min ago`, `3 days ago`. */
export function timeAgo(iso: string, now: number): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  const units: [number, string][] = [[86_400 * 365, 'year'], [86_400 * 30, 'month'], [86_400, 'day'], [3600, 'hour'], [60, 'min']];
  for (const [size, unit] of units) {
    const n = Math.floor(seconds / size);
    if (n >= 1) return `${n} ${unit}${n === 1 || unit === 'min' ? '' : 's'} ago`;
  }
  return 'just now';
}

/** The HTML id of a flag's switch in an environment (kept across a swap, so focus stays on it). */
export const switchId = (flag: string, environment: string) => `switch-${flag}--${environment}`;

function Switch({ projectId, row, env, may, back }: { projectId: string; row: FlagRow; env: FlagRowEnvironment; may: RowPermissions; back: string }) {
  const name = `${row.name} in ${env.name}`;
  const state = <span class="switch-state" aria-hidden="true">{env.enabled ? 'On' : 'Off'}</span>;
  if (!may.toggle || row.mark === 'archived') {
    return (
      <span class="switch switch-readonly">
        <input type="checkbox" role="switch" class="switch-input" aria-label={name} checked={env.enabled} disabled />
        <span class="switch-track" aria-hidden="true"></span>{state}
      </span>
    );
  }
  const action = toggleUrl(projectId, row.name, env.name);
  return (
    <form method="post" action={action} class="switch-form" hx-post={action} hx-trigger="change" hx-target="closest tbody" hx-swap="outerHTML">
      <Csrf ifMatch={etagOf(row.version)} />
      <input type="hidden" name="back" value={back} />
      <label class="switch">
        <input type="checkbox" role="switch" class="switch-input" id={switchId(row.name, env.name)} name="enabled" value="on" checked={env.enabled} aria-label={name} />
        <span class="switch-track" aria-hidden="true"></span>{state}
      </label>
      <noscript><button type="submit" class="button button-small" aria-label={`Save ${name}`}>Save</button></noscript>
    </form>
  );
}

function Note({ projectId, row, note, back, columns }: { projectId: string; row: FlagRow; note: RowNote; back: string; columns: number }) {
  if (note.kind === 'refused') {
    return (
      <tr class="row-note"><td colspan={columns}>
        <p class="alert alert-error" role="alert">{`${row.name} in ${note.environment}: ${note.message}`}</p>
      </td></tr>
    );
  }
  if (note.kind === 'drafted') {
    return (
      <tr class="row-note"><td colspan={columns}>
        <p class="alert alert-info" role="status">
          {`${row.name} in ${note.environment}: added to your `}<a href={changeRequestUrl(projectId, note.requestId)}>{`change request #${note.requestId}`}</a>
          {`. ${note.environment} takes changes through change requests: the switch moves once the request is approved and applied.`}
        </p>
      </td></tr>
    );
  }
  const hx = { 'hx-post': toggleUrl(projectId, row.name, note.environment), 'hx-target': 'closest tbody', 'hx-swap': 'outerHTML' };
  const cancel = <a class="button button-small" href={back} hx-get={rowUrl(projectId, row.name)} hx-vals={'{"have": "none"}'} hx-target="closest tbody" hx-swap="outerHTML">Cancel</a>;
  return (
    <tr class="row-note"><td colspan={columns}>
      <SwitchOffer flag={row.name} offer={note} action={toggleUrl(projectId, row.name, note.environment)} ifMatch={etagOf(row.version)} back={back} hx={hx}
        cancel={cancel} more={<>You can change it on the <a href={flagUrl(projectId, row.name)}>flag's page</a>.</>} />
    </td></tr>
  );
}

/** The columns before the switches: selection (when allowed), name, type, created, last seen, status, tags. */
export const fixedColumns = (may: RowPermissions) => (may.select ? 7 : 6);

/** One flag's `<tbody>`. */
export function FlagRowBody({ projectId, row, may, back, now, note }: FlagRowProps) {
  const tags = row.tags.slice(0, 3);
  return (
    <tbody id={`row-${row.name}`} class="flag-row" data-flag={row.name}
      hx-get={rowUrl(projectId, row.name)} hx-trigger={`sse:changed:${row.name}`} hx-target="this" hx-swap="outerHTML"
      hx-vals={JSON.stringify({ have: row.shown })}>
      <tr>
        {may.select
          // Kept as it is when the row is drawn again (hx-preserve): a live update does not undo a selection.
          ? <td class="col-select"><input type="checkbox" id={`select-${row.name}`} hx-preserve="true" name="features" value={row.name} form="bulk-form" aria-label={`Select ${row.name}`} class="row-select" /></td>
          : null}
        <th scope="row" class="col-name">
          <a href={flagUrl(projectId, row.name)} class="flag-name">{row.name}</a>
          {row.description ? <span class="flag-desc">{row.description}</span> : null}
        </th>
        <td class="col-type"><span class="type-chip">{row.type}</span></td>
        <td class="col-date" data-label="Created"><time datetime={row.createdAt}>{shortDate(row.createdAt)}</time></td>
        <td class="col-date" data-label="Last seen">{row.lastSeenAt ? <time datetime={row.lastSeenAt} title={row.lastSeenAt}>{timeAgo(row.lastSeenAt, now)}</time> : <span class="muted">Never</span>}</td>
        <td class="col-status">
          <span class={`mark mark-${row.mark}`}>{MARKS[row.mark]}</span>
          {row.stage !== 'archived' ? <span class={`stage stage-${row.stage}`} title="Lifecycle stage">{STAGES[row.stage]}</span> : null}
        </td>
        <td class="col-tags">
          {tags.length === 0 ? <span class="muted" aria-label="No tags">–</span> : (
            <ul class="tags" role="list">
              {tags.map((t) => <li class="tag">{`${t.type}:${t.value}`}</li>)}
              {row.tags.length > tags.length ? <li class="tag tag-more">{`+${row.tags.length - tags.length}`}</li> : null}
            </ul>
          )}
        </td>
        {row.environments.map((env) => <td class="col-switch" data-label={env.name}><Switch projectId={projectId} row={row} env={env} may={may} back={back} /></td>)}
      </tr>
      {note ? <Note projectId={projectId} row={row} note={note} back={back} columns={fixedColumns(may) + row.environments.length} /> : null}
    </tbody>
  );
}
