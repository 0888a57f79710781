/**
 * What the console adds to the app's parts (`ConsoleDeps`, built once per app by the composition root) and to a
 * request's context (`ConsoleEnv`: the session, the form as sent and as read).
 */
import type { Context } from 'hono';
import type { AppDeps, AppEnv } from '../http/route.js';
import { FlagTable } from '../queries/flag-table/flag-table.query.js';
import { ConsoleAssets } from './assets.js';
import type { ReadForm } from './forms/form.js';
import type { Permission } from '../auth/permissions.js';
import { TableEventStreams } from './live/table-events.js';
import { LIVE_PAGE_STREAMS } from '../limits.js';

/** The app's parts, and the console's own. */
export interface ConsoleDeps extends AppDeps {
  assets: ConsoleAssets;
  /** The flag tables' open live-update streams (`/projects/:projectId/events`). */
  liveTables: TableEventStreams;
  /** The flag table (`/projects/:projectId`), over the API search's indexes. */
  flagTable: FlagTable;
}

/** The console session a request came with: its id (from the cookie) and the key it is stored under. */
export interface ConsoleSession {
  id: string;
  key: string;
}

/** Values the console's steps set on a request's context, besides the API's. */
export interface ConsoleEnv {
  Variables: AppEnv['Variables'] & {
    /** On `authentication: 'session'` pages: the session that authenticated the request. */
    session: ConsoleSession | undefined;
    /** On a page's post: the form's fields as sent, dot paths nested (`_csrf` included). */
    sent: Record<string, unknown> | undefined;
    /** On a page's post with a declared form: its draft, and its value or the error refusing it. */
    form: ReadForm | undefined;
    /** The console's parts, for what renders a page (set by a page's first step, or by whoever renders one). */
    console: ConsoleDeps;
    /** The page's frame, once computed (`frameOf`, render.ts). */
    frame: Frame | undefined;
    /** The answer is an htmx fragment (no doctype). */
    fragment: boolean | undefined;
  };
}

/** One step of a console record's pipeline (as the API's `Step`), over the console's context. */
export type ConsoleStep = (c: Context<ConsoleEnv>) => void | Promise<unknown>;


/** The console's parts over the app's. */
export function consoleDeps(deps: AppDeps): ConsoleDeps {
  const { registry } = deps;
  return Object.assign({}, deps, {
    assets: ConsoleAssets.load(),
    liveTables: new TableEventStreams(registry.feed, LIVE_PAGE_STREAMS),
    flagTable: new FlagTable(registry, deps.search.indexes),
  });
}

/** Who is signed in, as the header shows them. */
export interface Viewer {
  name: string;
  /** What they are: a root role's name, or the kind of token they signed in with. */
  role: string;
  /** A person (not an API token): they have an account page. */
  person: boolean;
}

/** What every page's frame reads from its request. */
export interface Frame {
  assets: ConsoleAssets;
  /** Absent on pages shown before sign-in (and error pages without a session). */
  viewer?: Viewer | undefined;
  /** The session's CSRF token, for every form and htmx request. */
  csrf?: string | undefined;
  /** The service-wide permissions the viewer has (outside any project): which places and actions they see. */
  permits: ReadonlySet<Permission>;
}
