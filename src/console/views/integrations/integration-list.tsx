/** @jsxImportSource hono/jsx */
/**
 * The integrations (`/admin/integrations`): the configured addons (provider, description, enabled with its switch,
 * how many events, and for who may read delivery logs the last delivery's state), then the providers one can add, in
 * Unleash's order; a deprecated one is shown with why it can no longer be added, and no form.
 */
import type { DeliveryLogEntry } from '../../../actors/addons/delivery-log.js';
import type { Addon } from '../../../domain/addons/addon.js';
import type { ProviderDefinition } from '../../../domain/addons/provider-definition.js';
import type { SearchedPage } from '../../../queries/paging.js';
import { AdminFrame } from '../admin/admin-frame.js';
import { FormAlert, PostButton, When, type Refusal } from '../form-parts.js';
import { ListCard, ListEmpty, ListRows, ListSearch, withQuery } from '../list.js';
import { Notice } from '../notice.js';
import { addonTitle, DeliveryState, EnabledBadge, INTEGRATIONS, integrationUrl, newIntegrationUrl } from './integration-parts.js';

/** One configured addon (masked) and its newest delivery log entry (undefined: none, or not the viewer's to see). */
export interface IntegrationRow {
  addon: Addon;
  last: DeliveryLogEntry | undefined;
}

export interface IntegrationListProps {
  list: SearchedPage<IntegrationRow>;
  providers: readonly ProviderDefinition[];
  /** `UPDATE_ADDONS`: add, switch, edit, delete, test. */
  mayEdit: boolean;
  /** `ADMIN`: the delivery logs (the last delivery column and the links to the logs). */
  mayReadLog: boolean;
  notice?: string | undefined;
  refused?: Refusal<unknown> | undefined;
}

const events = (n: number) => `${n} ${n === 1 ? 'event' : 'events'}`;

function Row({ row, mayEdit, mayReadLog }: { row: IntegrationRow; mayEdit: boolean; mayReadLog: boolean }) {
  const { addon, last } = row;
  const title = addonTitle(addon);
  return (
    <tr>
      <th scope="row" class="list-name">
        <a href={integrationUrl(addon.id)}>{title}</a>
        {addon.description ? <span class="list-desc">{addon.description}</span> : null}
      </th>
      <td data-label="State"><EnabledBadge enabled={addon.enabled} /></td>
      <td data-label="Events">{addon.events.length === 0 ? <span class="muted">None</span> : events(addon.events.length)}</td>
      {mayReadLog
        ? <td data-label="Last delivery">{last ? <span class="last-delivery"><DeliveryState entry={last} /> <When at={last.createdAt} /></span> : <span class="muted">None yet</span>}</td>
        : null}
      <td>
        <div class="row-actions">
          {mayEdit
            ? <PostButton action={integrationUrl(addon.id, 'enabled')} fields={{ enabled: addon.enabled ? 'false' : 'true' }}
                label={addon.enabled ? 'Disable' : 'Enable'} ariaLabel={`${addon.enabled ? 'Disable' : 'Enable'} ${title} ${addon.id}`} />
            : null}
          {mayReadLog ? <a class="button button-small" href={integrationUrl(addon.id, 'deliveries')} aria-label={`Delivery log of ${title} ${addon.id}`}>Deliveries</a> : null}
        </div>
      </td>
    </tr>
  );
}

function ProviderCard({ provider, mayEdit }: { provider: ProviderDefinition; mayEdit: boolean }) {
  return (
    <li class="card provider-card">
      <h3 class="project-name">{provider.displayName}{provider.deprecated ? <> <span class="badge badge-warn">Deprecated</span></> : null}</h3>
      <p class="project-desc">{provider.description}</p>
      {provider.deprecated ? <p class="small muted">{provider.deprecated}</p> : null}
      <p class="provider-links">
        {mayEdit && !provider.deprecated ? <a class="button button-small button-primary" href={newIntegrationUrl(provider.name)} aria-label={`Add ${provider.displayName}`}>Add</a> : null}
        <a href={provider.documentationUrl} rel="noopener noreferrer" target="_blank">Documentation<span class="sr-only"> of {provider.displayName} (opens a new tab)</span></a>
      </p>
    </li>
  );
}

/** The page. */
export function IntegrationList({ list, providers, mayEdit, mayReadLog, notice, refused }: IntegrationListProps) {
  const columns = ['Integration', 'State', 'Events', ...(mayReadLog ? ['Last delivery'] : []), <span class="sr-only">Actions</span>];
  return (
    <AdminFrame title="Integrations" current="integrations"
      lead="Send the service's events to a webhook, Slack, Microsoft Teams, Datadog or New Relic. Each event is delivered at least once, in order, retried while the receiver fails.">
      <Notice notice={notice} />
      <FormAlert error={refused} form="enabled" />
      <ListCard id="integrations-title" title="Configured"
        head={list.total === 0 && list.q === '' ? undefined : <ListSearch action={INTEGRATIONS} q={list.q} id="integrations-q" class="list-search" label="Find integrations" placeholder="Provider or description" name="Search integrations" clear />}>
        <ListRows list={list} labelledBy="integrations-title" class="list-table addon-table" scroll="list-scroll" columns={columns}
          empty={<ListEmpty title={list.q === '' ? 'No integrations yet' : 'No integration matches'} level={3}>
            <p class="muted">{list.q === '' ? (mayEdit ? 'Add one from the providers below.' : 'An Admin or Editor can add one.') : `No provider or description contains "${list.q}".`}</p>
          </ListEmpty>}
          href={(n) => withQuery(INTEGRATIONS, { q: list.q, page: n })} noun={['integration', 'integrations']}
          row={(row) => <Row row={row} mayEdit={mayEdit} mayReadLog={mayReadLog} />} />
      </ListCard>
      <section aria-labelledby="providers-title" class="providers">
        <h2 id="providers-title">{mayEdit ? 'Add an integration' : 'Providers'}</h2>
        <ul class="project-grid provider-grid">
          {providers.map((p) => <ProviderCard provider={p} mayEdit={mayEdit} />)}
        </ul>
      </section>
    </AdminFrame>
  );
}
