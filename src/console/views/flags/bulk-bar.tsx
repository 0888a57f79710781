/** @jsxImportSource hono/jsx */
/**
 * The bulk bar: the rows' checkboxes belong to this form (`form="bulk-form"`), and each button is one bulk use
 * case (switch on or off in the chosen environment, mark stale, archive). A plain POST that comes back to the
 * table's URL.
 */
import type { FlagTableEnvironment } from '../../../queries/flag-table/flag-table.query.js';
import { Csrf } from '../form-parts.js';
import { bulkUrl } from './flag-urls.js';

/** The bulk actions, as the form's `action` field names them. */
export const BULK_ACTIONS = ['on', 'off', 'stale', 'archive'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

/** Which bulk actions the viewer may use. */
export type BulkPermissions = Record<BulkAction, boolean>;

export interface BulkBarProps {
  projectId: string;
  environments: FlagTableEnvironment[];
  may: BulkPermissions;
  back: string;
  /** The API's message when the last bulk action was refused. */
  error?: string | undefined;
}

/** The bar above the table. */
export function BulkBar({ projectId, environments, may, back, error }: BulkBarProps) {
  return (
    <form id="bulk-form" method="post" action={bulkUrl(projectId)} class="bulk-bar" aria-label="Selected flags">
      <Csrf />
      <input type="hidden" name="back" value={back} />
      <span class="bulk-label">With the selected flags:</span>
      {may.on || may.off ? (
        <span class="bulk-group">
          <label for="bulk-environment" class="sr-only">Environment</label>
          <select id="bulk-environment" name="environment" class="select-small">
            {environments.map((env) => <option value={env.name}>{`in ${env.name}`}</option>)}
          </select>
          {may.on ? <button type="submit" name="action" value="on" class="button button-small">Switch on</button> : null}
          {may.off ? <button type="submit" name="action" value="off" class="button button-small">Switch off</button> : null}
        </span>
      ) : null}
      {may.stale ? <button type="submit" name="action" value="stale" class="button button-small">Mark stale</button> : null}
      {may.archive ? <button type="submit" name="action" value="archive" class="button button-small button-danger">Archive</button> : null}
      {error ? <p class="alert alert-error bulk-error" role="alert">{error}</p> : null}
    </form>
  );
}
