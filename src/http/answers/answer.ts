import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context } from 'hono';

/**
 * Answers written the cheap way when served by Node (`@hono/node-server`): headers noted and written with the
 * answer, plain `Response`s that node-server writes as they are; through Hono otherwise (`app.request`).
 * Hand-kept for speed: docs/performance.md "Noted response headers".
 */

/** The node-server bindings of a request served over HTTP (absent under `app.request`). */
export interface NodeBindings {
  incoming?: IncomingMessage;
  outgoing?: ServerResponse;
}

/**
 * The headers an answer's steps noted, per request served by Node, until its answer takes them: a property of
 * the request's context (a `WeakMap` beside it would cost about what the noting saves).
 */
const NOTED = Symbol('notedHeaders');
type Noting = Context & { [NOTED]?: Record<string, string> | undefined };

/**
 * Sets a header of the answer. Served by Node it is noted, and {@link answerWith} writes it with the answer's
 * own headers; an answer built otherwise gets it on Node's response ({@link flushNotedHeaders}). Not set there
 * first: Node would then merge the answer's headers into that map one `setHeader` at a time. Through Hono
 * under `app.request`.
 */
export function setResponseHeader(c: Context, name: string, value: string): void {
  if (!(c.env as NodeBindings | undefined)?.outgoing) return void c.header(name, value);
  const noted = (c as Noting)[NOTED];
  if (noted) noted[name] = value;
  else (c as Noting)[NOTED] = { [name]: value };
}

/**
 * Puts the headers noted and not yet taken by an answer on Node's response (an answer built by Hono, an error
 * answer, a stream): called once the answer exists, before node-server writes it.
 */
export function flushNotedHeaders(c: Context): void {
  const noted = (c as Noting)[NOTED];
  const outgoing = (c.env as NodeBindings | undefined)?.outgoing;
  if (!noted || !outgoing) return;
  (c as Noting)[NOTED] = undefined;
  for (const name in noted) outgoing.setHeader(name, noted[name]!);
}

/**
 * An answer with a body (or none) and plain headers. Served by Node it is a plain `Response` that node-server
 * writes as it is, with the headers noted by `setResponseHeader` (its own win over a noted one of the same
 * name); under `app.request` it goes through Hono, which adds what `c.header` set.
 */
export function answerWith(c: Context, body: Uint8Array<ArrayBuffer> | string | null, status: number, headers?: Readonly<Record<string, string>>): Response {
  if (!(c.env as NodeBindings | undefined)?.outgoing) {
    return (c.body as (data: typeof body, status: number, headers?: Readonly<Record<string, string>>) => Response)(body, status, headers);
  }
  const noted = (c as Noting)[NOTED];
  if (!noted) return new Response(body, headers ? { status, headers } : { status });
  (c as Noting)[NOTED] = undefined;
  if (!headers) return new Response(body, { status, headers: noted });
  const all: Record<string, string> = { ...headers };
  for (const name in noted) if (!hasName(all, name)) all[name] = noted[name]!;
  return new Response(body, { status, headers: all });
}

/** Whether `headers` has `name`, in any case. */
function hasName(headers: Record<string, string>, name: string): boolean {
  const lower = name.toLowerCase();
  for (const key in headers) if (key.length === lower.length && key.toLowerCase() === lower) return true;
  return false;
}

/** The headers of a JSON answer, as Hono's `c.json` sets them. */
export const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'Content-Type': 'application/json' });
