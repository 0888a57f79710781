/** @jsxImportSource hono/jsx */
/**
 * One integration (`/admin/integrations/:id`) or a new one (`/admin/new-integration/:provider`): the provider's
 * how-to and notes, its form (facts for who may not change it), and for a stored one its actions: send a test event
 * (the answer shown here, as the API answers it), its delivery log, delete behind a confirmation.
 */
import type { DeliveryLogEntry } from '../../../actors/addons/delivery-log.js';
import type { Addon } from '../../../domain/addons/addon.js';
import type { ProviderDefinition } from '../../../domain/addons/provider-definition.js';
import type { AddonDraft } from '../../forms/addon.forms.js';
import { AdminFrame } from '../admin/admin-frame.js';
import { BackLink, DeleteConfirm } from '../definitions/definition-parts.js';
import { FormAlert, PostButton, refusedIn, When, type Refusal } from '../form-parts.js';
import { Notice } from '../notice.js';
import { AddonFacts, AddonForm } from './integration-form.js';
import { DeliveryState, EnabledBadge, INTEGRATIONS, integrationUrl } from './integration-parts.js';

export interface IntegrationPageProps {
  provider: ProviderDefinition;
  /** The stored addon, masked; undefined on the new-integration page. */
  addon: Addon | undefined;
  values: AddonDraft;
  projects: { id: string; name: string }[];
  environments: string[];
  mayEdit: boolean;
  mayReadLog: boolean;
  refused?: Refusal<unknown> | undefined;
  notice?: string | undefined;
  /** The answer of a test send just made. */
  tested?: DeliveryLogEntry | undefined;
}

/** What the provider says about itself: how it works, its notes, where to install its app. */
function About({ provider }: { provider: ProviderDefinition }) {
  return (
    <div class="provider-about">
      {provider.howTo ? <p>{provider.howTo}</p> : null}
      {(provider.alerts ?? []).map((a) => (
        <p class={a.type === 'error' || a.type === 'warning' ? 'alert alert-warn' : 'alert alert-info'}>
          {a.text}{a.link ? <> <a href={a.link.url} rel="noopener noreferrer">{a.link.title ?? 'More'}</a></> : null}
        </p>
      ))}
      {provider.installation ? <p>{provider.installation.helpText ?? ''} <a href={provider.installation.url} rel="noopener noreferrer">{provider.installation.title ?? 'Install'}</a></p> : null}
      {provider.deprecated ? <p class="alert alert-warn">{provider.deprecated}</p> : null}
    </div>
  );
}

/** A test send's answer: its state, what the receiver answered, and the request's details (secrets masked). */
function TestResult({ entry }: { entry: DeliveryLogEntry }) {
  const failed = entry.state === 'failed';
  return (
    <section class={failed ? 'card test-result test-failed' : 'card test-result'} aria-labelledby="test-result-title">
      <h2 id="test-result-title">Test event <DeliveryState entry={entry} /></h2>
      <p class="delivery-details" role={failed ? 'alert' : 'status'}>{entry.stateDetails}</p>
      <p class="small muted">Sent <When at={entry.createdAt} />, once, without a retry: a <code>{entry.event.type}</code> event about <code>{entry.event.featureName ?? ''}</code>.</p>
      <details><summary>Request details</summary><pre class="delivery-json" tabindex={0}>{JSON.stringify(entry.details, null, 2)}</pre></details>
    </section>
  );
}

function Actions({ addon, title, mayEdit, mayReadLog, refused }: { addon: Addon; title: string; mayEdit: boolean; mayReadLog: boolean; refused: Refusal<unknown> | undefined }) {
  return (
    <section class="card def-danger addon-actions" aria-labelledby="addon-actions-title">
      <h2 id="addon-actions-title">Actions</h2>
      <p><EnabledBadge enabled={addon.enabled} /> <span class="small muted">Created <When at={addon.createdAt} /></span></p>
      <FormAlert error={refusedIn(refused, 'test')} form="test" />
      {mayEdit
        ? <div class="test-send">
            <PostButton action={integrationUrl(addon.id, 'test')} label="Send a test event" class="button" />
            <p class="hint">Sends one made-up event now, enabled or not, and shows what the receiver answered.</p>
          </div>
        : null}
      {mayReadLog ? <p><a class="button" href={integrationUrl(addon.id, 'deliveries')}>Delivery log</a></p> : null}
      {mayEdit
        ? <>
            <FormAlert error={refusedIn(refused, 'delete')} form="delete" />
            <DeleteConfirm action={integrationUrl(addon.id, 'delete')} label={`Delete ${title}`}>
              <p>Delete this {title} integration and its delivery log? Events are no longer sent to it. This cannot be undone.</p>
            </DeleteConfirm>
          </>
        : null}
    </section>
  );
}

/** The page. */
export function IntegrationPage(p: IntegrationPageProps) {
  const { provider, addon } = p;
  const title = addon ? `${provider.displayName}${addon.description ? `: ${addon.description}` : ''}` : `New ${provider.displayName} integration`;
  const formRefusal = refusedIn<AddonDraft>(p.refused, 'addon');
  return (
    <AdminFrame title={title} current="integrations" lead={provider.description}>
      <BackLink href={INTEGRATIONS} label="All integrations" />
      <Notice notice={p.notice} />
      {p.tested ? <TestResult entry={p.tested} /> : null}
      <div class={addon ? 'def-grid' : 'def-grid def-grid-single'}>
        <section class="card" aria-labelledby="addon-form-title">
          <h2 id="addon-form-title">{addon ? (p.mayEdit ? 'Settings' : 'Details') : 'Settings'}</h2>
          <About provider={provider} />
          {p.mayEdit && (addon || !provider.deprecated)
            ? <AddonForm provider={provider} addon={addon} values={p.values} projects={p.projects} environments={p.environments} refused={formRefusal}
                action={addon ? integrationUrl(addon.id) : INTEGRATIONS} submit={addon ? 'Save integration' : `Add ${provider.displayName}`} />
            : addon ? <AddonFacts provider={provider} addon={addon} /> : formRefusal ? <p class="alert alert-error" role="alert">{formRefusal.error.message}</p> : null}
        </section>
        {addon ? <Actions addon={addon} title={provider.displayName} mayEdit={p.mayEdit} mayReadLog={p.mayReadLog} refused={p.refused} /> : null}
      </div>
    </AdminFrame>
  );
}
