/** @jsxImportSource hono/jsx */
/**
 * The models of the integration pages, built from the addon queries (every addon read there is masked) and drawn:
 * the list, one integration (or a new one of a provider), its delivery log. What the viewer may do is read from their
 * roles as the API's records decide it: `UPDATE_ADDONS` to change, `ADMIN` for delivery logs.
 */
import type { Context } from 'hono';
import type { DeliveryLogEntry } from '../../actors/addons/delivery-log.js';
import { isAllowed, type Principal } from '../../auth/permissions.js';
import { providerNamed, type Addon } from '../../domain/addons/addon.js';
import type { ProviderDefinition } from '../../domain/addons/provider-definition.js';
import { apiError } from '../../http/errors.js';
import { addonById, addonList, deliveryLog } from '../../queries/addons.query.js';
import { searchPage } from '../../queries/paging.js';
import { tokenScopeChoices } from '../../queries/token-list.query.js';
import type { ListPageQuery } from '../../schemas/admin-pages.schema.js';
import type { ConsoleDeps, ConsoleEnv } from '../console-deps.js';
import type { AddonDraft } from '../forms/addon.forms.js';
import type { Refusal } from '../forms/form.js';
import { noticeOf } from '../notices.js';
import { frameOf, renderPage } from '../render.js';
import { DeliveryLogPage } from '../views/integrations/delivery-log-page.js';
import { draftOf } from '../views/integrations/integration-form.js';
import { IntegrationList } from '../views/integrations/integration-list.js';
import { IntegrationPage } from '../views/integrations/integration-page.js';

/** Delivery log entries per page. */
const LOG_PAGE = 25;

/**
 * An addon id from the path, as the API reads it: anything but a positive integer names no addon (the 404 page).
 *
 * @example addonIdOf('12') // 12
 */
export function addonIdOf(raw: string): number {
  if (/^\d{1,15}$/.test(raw) && Number(raw) > 0) return Number(raw);
  throw apiError('NotFoundError', `Could not find addon with id ${raw.slice(0, 100)}`);
}

/** What the viewer may do here. */
function mayOf(c: Context<ConsoleEnv>) {
  const principal = c.get('principal') as Principal;
  return { mayEdit: isAllowed(principal, 'UPDATE_ADDONS', undefined), mayReadLog: frameOf(c).permits.has('ADMIN') };
}

/** The stored addon (masked), or the 404 page. */
function storedAddon(deps: ConsoleDeps, id: number): Addon {
  const found = addonById(deps.registry, id);
  if (!found.ok) throw apiError('NotFoundError', found.error.message);
  return found.value;
}

/** The list (`?q=`, `?page=`, `?done=`), with a refused switch or delete when there is one. */
export async function listPage(c: Context<ConsoleEnv>, deps: ConsoleDeps, query: ListPageQuery, refused?: Refusal<unknown>): Promise<Response> {
  const { addons, providers } = addonList(deps.registry);
  const may = mayOf(c);
  const list = searchPage(addons, (a) => [a.provider, providerNamed(a.provider)?.displayName ?? '', a.description], query.q, query.page);
  const rows = await Promise.all(list.rows.map(async (addon) => {
    if (!may.mayReadLog) return { addon, last: undefined };
    const newest = await deliveryLog(deps.registry, addon.id, { limit: '1' });
    return { addon, last: newest.ok ? newest.value.integrationEvents[0] : undefined };
  }));
  return renderPage(c, <IntegrationList list={{ ...list, rows }} providers={providers} {...may} notice={noticeOf('integrations', query.done)} refused={refused} />);
}

/** A provider's definition, or the 404 page. */
function providerOr404(name: string): ProviderDefinition {
  const provider = providerNamed(name);
  if (!provider) throw apiError('NotFoundError', `Unknown addon provider ${name.slice(0, 100)}`);
  return provider;
}

/** The new-integration page of a provider, with a refused create when there is one. */
export function newPage(c: Context<ConsoleEnv>, deps: ConsoleDeps, providerName: string, refused?: Refusal<AddonDraft>): Response {
  const provider = providerOr404(providerName);
  const { projects, environments } = tokenScopeChoices(deps.registry);
  return renderPage(c, (
    <IntegrationPage provider={provider} addon={undefined} values={refused?.draft ?? draftOf(provider.name)} projects={projects} environments={environments}
      {...mayOf(c)} refused={refused} />
  ));
}

/** An integration's page: its form (or facts), a refusal, the answer of a test send. */
export function integrationPage(c: Context<ConsoleEnv>, deps: ConsoleDeps, id: number, options: { refused?: Refusal<unknown>; tested?: DeliveryLogEntry } = {}): Response {
  const addon = storedAddon(deps, id);
  const known = providerNamed(addon.provider);
  // An addon of a provider this version does not know (from an old backup) is shown, not edited: its form is unknown.
  const provider = known ?? { name: addon.provider, displayName: addon.provider, description: '', documentationUrl: '', parameters: [], events: [] };
  const { projects, environments } = tokenScopeChoices(deps.registry);
  const may = mayOf(c);
  const draft = options.refused?.form === 'addon' ? (options.refused.draft as AddonDraft) : draftOf(addon.provider, addon);
  return renderPage(c, (
    <IntegrationPage provider={provider} addon={addon} values={draft} projects={projects} environments={environments}
      mayEdit={may.mayEdit && known !== undefined} mayReadLog={may.mayReadLog} refused={options.refused} tested={options.tested}
      notice={noticeOf('integrations', c.req.query('done'))} />
  ));
}

/** Page `page` of an integration's delivery log (one entry more is read, to know whether older ones follow). */
export async function logPage(c: Context<ConsoleEnv>, deps: ConsoleDeps, id: number, page: number): Promise<Response> {
  const addon = storedAddon(deps, id);
  const read = await deliveryLog(deps.registry, id, { limit: String(LOG_PAGE + 1), offset: String((page - 1) * LOG_PAGE) });
  const entries = read.ok ? read.value.integrationEvents : [];
  return renderPage(c, <DeliveryLogPage addon={addon} entries={entries.slice(0, LOG_PAGE)} page={page} more={entries.length > LOG_PAGE} />);
}
