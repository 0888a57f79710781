import { createServer, type IncomingMessage, type ServerOptions, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import type { Hono } from 'hono';
import type { AppEnv } from './route.js';

/**
 * A request Node answers before Hono sees it: `true` when it wrote the whole answer, `false` to leave the request
 * to Hono untouched (a shortcut only answers what the route would answer the same; anything else, errors
 * included, goes on to the route). A promise settles to the same (the request waits; Hono reads its body later).
 */
export type NodeShortcut = (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;

const SHORTCUTS = new WeakMap<Hono<AppEnv>, NodeShortcut[]>();

/** Registers a shortcut of `app`, tried in the order added, when the app is served by {@link serveApp}. */
export function addNodeShortcut(app: Hono<AppEnv>, shortcut: NodeShortcut): void {
  SHORTCUTS.set(app, [...(SHORTCUTS.get(app) ?? []), shortcut]);
}

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/** The shortcuts of the app served at the moment, then, if none answered, node-server's listener (Hono). */
function withShortcuts(app: () => Hono<AppEnv>, honoListener: Listener): Listener {
  return (req, res) => {
    const shortcuts = SHORTCUTS.get(app());
    if (shortcuts) {
      for (let i = 0; i < shortcuts.length; i += 1) {
        const answered = shortcuts[i]!(req, res);
        if (answered === true) return;
        if (answered !== false) {
          answered.then((done) => { if (!done) honoListener(req, res); }, () => honoListener(req, res));
          return;
        }
      }
    }
    honoListener(req, res);
  };
}

export interface ServeOptions {
  port: number;
  hostname?: string;
  serverOptions?: ServerOptions;
  /** What Hono's side calls for the requests no shortcut answered (default: the app's `fetch`); tests wrap it. */
  fetch?: (request: Request, env: unknown) => Response | Promise<Response>;
}

/**
 * Serves `app` over HTTP as `npm start` does: `@hono/node-server` with the app's Node shortcuts in front. `app`
 * may be a function returning the app to serve now (a test harness swaps it across restarts).
 *
 * @example const server = serveApp(app, { port: 4242, hostname: '127.0.0.1' }, (info) => log(info.port))
 */
export function serveApp(app: Hono<AppEnv> | (() => Hono<AppEnv>), options: ServeOptions, onListen?: (info: AddressInfo) => void): ServerType {
  const current = typeof app === 'function' ? app : () => app;
  return serve({
    fetch: options.fetch ?? ((request, env) => current().fetch(request, env)),
    port: options.port,
    ...(options.hostname === undefined ? {} : { hostname: options.hostname }),
    serverOptions: options.serverOptions ?? {},
    createServer: ((serverOptions: ServerOptions, listener: Listener) => createServer(serverOptions, withShortcuts(current, listener))) as typeof createServer,
  }, onListen);
}
