import { createServer, type IncomingMessage, type ServerOptions, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';

/**
 * The fast paths of an app (`fastPathsOf`, src/http/fast-paths/dispatch.ts): `true` when one wrote the whole
 * answer, `false` to hand the request to Hono untouched; a promise settles to the same (the request waits, and
 * Hono reads its body later).
 */
export type FastPaths = (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;

/** What `serveApp` serves: Hono's `fetch`, and the fast paths answered before it, if any. */
export interface ServedApp {
  fetch(request: Request, env: unknown): Response | Promise<Response>;
  readonly fastPaths?: FastPaths | undefined;
  /** A `Warning` every answer carries now (a node cut off from the shared database), or null. */
  readonly staleness?: (() => string | null) | undefined;
}

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/** The fast paths of the app served at the moment, then, if none answered, node-server's listener (Hono). */
function withFastPaths(app: () => ServedApp, honoListener: Listener): Listener {
  return (req, res) => {
    const served = app();
    const stale = served.staleness?.() ?? null;
    // Set before either side writes: Node merges it into the head Hono or a fast path writes.
    if (stale !== null) res.setHeader('warning', stale);
    const answered = served.fastPaths?.(req, res) ?? false;
    if (answered === true) return;
    if (answered === false) return honoListener(req, res);
    answered.then((done) => { if (!done) honoListener(req, res); }, () => honoListener(req, res));
  };
}

export interface ServeOptions {
  port: number;
  hostname?: string;
  serverOptions?: ServerOptions;
  /** What Hono's side calls for the requests no fast path answered (default: the app's `fetch`); tests wrap it. */
  fetch?: (request: Request, env: unknown) => Response | Promise<Response>;
}

/**
 * Serves `app` over HTTP as `npm start` does: `@hono/node-server` with the app's fast paths in front. `app` may
 * be a function returning the app to serve now (a test harness swaps it across restarts).
 *
 * @example const server = serveApp(createApp(options), { port: 4242, hostname: '127.0.0.1' }, (info) => log(info.port))
 */
export function serveApp(app: ServedApp | (() => ServedApp), options: ServeOptions, onListen?: (info: AddressInfo) => void): ServerType {
  const current = typeof app === 'function' ? app : () => app;
  return serve({
    fetch: options.fetch ?? ((request, env) => current().fetch(request, env)),
    port: options.port,
    ...(options.hostname === undefined ? {} : { hostname: options.hostname }),
    serverOptions: options.serverOptions ?? {},
    createServer: ((serverOptions: ServerOptions, listener: Listener) => createServer(serverOptions, withFastPaths(current, listener))) as typeof createServer,
  }, onListen);
}
