/** @jsxImportSource hono/jsx */
/**
 * What the flag table's page routes share: the table's state read from a URL (repeated parameters as lists,
 * empty form fields ignored), what the caller may do in the project (the one permission table), and the page
 * rendered for a request (after a GET, or again after a form sent without script was refused).
 */
import type { Context } from 'hono';
import * as v from 'valibot';
import type { ProjectActor } from '../actors/actor-types.js';
import { isAllowed, type Permission, roleIn } from '../auth/permissions.js';
import { FlagTableQuerySchema, type FlagTableQuery } from '../schemas/flag-table.schema.js';
import { formatIssues } from '../schemas/issues.js';
import type { ConsoleDeps, ConsoleEnv } from './console-deps.js';
import { renderForNoOne, renderPage, safeNext } from './render.js';
import type { BulkPermissions } from './views/flags/bulk-bar.js';
import type { RowNote, RowPermissions } from './views/flags/flag-row.js';
import { tableUrl } from './views/flags/flag-urls.js';
import type { NewFlagDraft } from './forms/flag-table.forms.js';
import type { Refusal } from './forms/form.js';
import { ProjectFlagsPage } from './views/flags/project-flags-page.js';
import { openDraftsOf, type OpenDraft } from './change-drafts.js';

const DEFAULT_QUERY = v.parse(FlagTableQuerySchema, {});

/**
 * The table's state in `search` (a URL's query): the schema's reading, or the defaults and the message naming
 * what could not be read.
 *
 * @example tableStateOf(new URL(c.req.url).searchParams) // { query: { q: 'checkout', ... } }
 */
export function tableStateOf(search: URLSearchParams): { query: FlagTableQuery; error?: string } {
  const raw: Record<string, string | string[]> = {};
  for (const [key, value] of search) {
    if (value === '') continue;
    const had = raw[key];
    raw[key] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
  }
  const parsed = v.safeParse(FlagTableQuerySchema, raw);
  return parsed.success ? { query: parsed.output } : { query: DEFAULT_QUERY, error: `This view's address could not be read: ${formatIssues(parsed.issues).message}` };
}

/** Whether the caller may do what needs `permission` in the project `actor` holds. */
export function mayIn(c: Context<ConsoleEnv>, actor: ProjectActor, permission: Permission): boolean {
  const principal = c.get('principal');
  return isAllowed(principal, permission, roleIn(principal, actor.state.meta.members));
}

/** What the caller may do in the table's rows. */
export function rowPermissions(c: Context<ConsoleEnv>, actor: ProjectActor): RowPermissions {
  return { toggle: mayIn(c, actor, 'UPDATE_FEATURE_ENVIRONMENT'), select: Object.values(bulkPermissions(c, actor)).some(Boolean) };
}

/** What the caller may do with the bulk bar. */
export function bulkPermissions(c: Context<ConsoleEnv>, actor: ProjectActor): BulkPermissions {
  const toggle = mayIn(c, actor, 'UPDATE_FEATURE_ENVIRONMENT');
  return { on: toggle, off: toggle, stale: mayIn(c, actor, 'UPDATE_FEATURE'), archive: mayIn(c, actor, 'DELETE_FEATURE') };
}

/** The table's URL a form sent back (`back`), when it is one of this project's table; else the table's default URL. */
export function backTo(projectId: string, back: string | undefined): string {
  const base = tableUrl(projectId);
  const safe = safeNext(back);
  return safe === base || safe.startsWith(`${base}?`) ? safe : base;
}

/** What a page render adds to the table. */
export interface TablePageExtras {
  status?: number;
  /** The table's state; by default the request URL's. */
  search?: URLSearchParams;
  notice?: { kind: 'error' | 'done'; message: string } | undefined;
  notes?: ReadonlyMap<string, RowNote>;
  /** A refused new-flag form, shown open. */
  newFlag?: Refusal<NewFlagDraft>;
  /** The request a bulk change went to instead of being made (`?done=drafted&request=<id>`). */
  drafted?: OpenDraft | undefined;
}

/** The project's page for this request. */
export function tablePage(c: Context<ConsoleEnv>, deps: ConsoleDeps, actor: ProjectActor, extras: TablePageExtras = {}): Response {
  const state = tableStateOf(extras.search ?? new URL(c.req.url).searchParams);
  const now = Date.now();
  let query = state.query;
  let notice = extras.notice ?? (state.error ? { kind: 'error' as const, message: state.error } : undefined);
  let page = deps.flagTable.page(actor.state, query, now);
  if (!page.ok) {
    notice = { kind: 'error', message: `This view's address could not be read: ${page.error.message}` };
    query = DEFAULT_QUERY;
    page = deps.flagTable.page(actor.state, query, now);
  }
  if (!page.ok) throw new Error(page.error.message);
  const meta = actor.state.meta;
  const may = { toggle: mayIn(c, actor, 'UPDATE_FEATURE_ENVIRONMENT'), create: mayIn(c, actor, 'CREATE_FEATURE'), bulk: bulkPermissions(c, actor) };
  return renderPage(c, (
    <ProjectFlagsPage project={{ id: meta.id, name: meta.name, description: meta.description || null }}
      query={query} page={page.value} now={now} may={may} notice={notice} notes={extras.notes} newFlag={extras.newFlag}
      drafts={openDraftsOf(actor.state, c.get('principal'))} drafted={extras.drafted} />
  ), extras.status ?? (state.error ? 400 : undefined));
}

/**
 * A project's first page rendered for no one, every control shown: a start (`prepareTables`, `warm-up.ts`) runs
 * the page's code once before the first person asks, so that person does not wait for it to be compiled.
 */
export function renderFirstPage(deps: ConsoleDeps, actor: ProjectActor): string {
  const now = Date.now();
  const page = deps.flagTable.page(actor.state, DEFAULT_QUERY, now);
  if (!page.ok) return '';
  const meta = actor.state.meta;
  const frame = { assets: deps.assets, viewer: { name: 'warm-up', role: 'Admin', person: false }, csrf: 'warm-up', permits: new Set(['READ' as const]) };
  const may = { toggle: true, create: true, bulk: { on: true, off: true, stale: true, archive: true } };
  return renderForNoOne(frame, <ProjectFlagsPage project={{ id: meta.id, name: meta.name, description: meta.description || null }} query={DEFAULT_QUERY} page={page.value} now={now} may={may} />);
}
