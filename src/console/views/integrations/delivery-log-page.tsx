/** @jsxImportSource hono/jsx */
/**
 * An integration's delivery log (`/admin/integrations/:id/deliveries`, `ADMIN` as the API's): one row per attempt,
 * newest first (state, when, the event, the attempt and when the next is due, what the receiver answered, the
 * request's details). Entries are masked where they are written: no secret reaches this page.
 */
import type { DeliveryLogEntry } from '../../../actors/addons/delivery-log.js';
import type { Addon } from '../../../domain/addons/addon.js';
import { AdminFrame } from '../admin/admin-frame.js';
import { BackLink } from '../definitions/definition-parts.js';
import { When } from '../form-parts.js';
import { ListCard, ListEmpty, ListTable, withQuery } from '../list.js';
import { addonTitle, DeliveryState, EnabledBadge, integrationUrl } from './integration-parts.js';

export interface DeliveryLogPageProps {
  addon: Addon;
  entries: DeliveryLogEntry[];
  /** This page's number (from 1), and whether older entries follow. */
  page: number;
  more: boolean;
}

function Row({ entry }: { entry: DeliveryLogEntry }) {
  return (
    <tr>
      <th scope="row" class="list-name"><DeliveryState entry={entry} /></th>
      <td class="nowrap" data-label="When"><When at={entry.createdAt} /></td>
      <td data-label="Event"><span class="cell-body"><code>{entry.event.type}</code>{entry.event.featureName ? <span class="list-desc">{entry.event.featureName}</span> : null}</span></td>
      <td data-label="Attempt"><span class="cell-body">{entry.attempt}{entry.retryAt ? <span class="list-desc">next <When at={entry.retryAt} /></span> : null}</span></td>
      <td data-label="Details" class="delivery-cell">
        <div class="cell-body">
          <p class="delivery-details">{entry.stateDetails}</p>
          <details><summary>Request</summary><pre class="delivery-json" tabindex={0}>{JSON.stringify(entry.details, null, 2)}</pre></details>
        </div>
      </td>
    </tr>
  );
}

/** The page. */
export function DeliveryLogPage({ addon, entries, page, more }: DeliveryLogPageProps) {
  const base = integrationUrl(addon.id, 'deliveries');
  const title = `${addonTitle(addon)}${addon.description ? `: ${addon.description}` : ''}`;
  return (
    <AdminFrame title="Delivery log" current="integrations" lead="Every attempt to deliver an event, newest first; the newest 200 are kept. A failed attempt is tried again with growing waits for up to a day, unless the receiver refused it for good.">
      <BackLink href={integrationUrl(addon.id)} label={title} />
      <p><EnabledBadge enabled={addon.enabled} /></p>
      <ListCard id="deliveries-title" title="Attempts">
        {entries.length === 0
          ? <ListEmpty title="No deliveries yet" level={3}><p class="muted">{page > 1 ? 'No older attempts.' : 'Attempts show here once an event it takes is committed, or a test event is sent.'}</p></ListEmpty>
          : <ListTable labelledBy="deliveries-title" class="list-table delivery-table" scroll="list-scroll" columns={['State', 'When', 'Event', 'Attempt', 'Details']}>
              {entries.map((entry) => <Row entry={entry} />)}
            </ListTable>}
        <nav class="pager" aria-label="Pages">
          <p class="pager-status">{`Page ${page}`}</p>
          <div class="pager-links">
            {page > 1 ? <a class="button button-small" href={withQuery(base, { page: page - 1 })} rel="prev">Newer</a> : <span class="button button-small" aria-disabled="true">Newer</span>}
            {more ? <a class="button button-small" href={withQuery(base, { page: page + 1 })} rel="next">Older</a> : <span class="button button-small" aria-disabled="true">Older</span>}
          </div>
        </nav>
      </ListCard>
    </AdminFrame>
  );
}
