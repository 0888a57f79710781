import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context } from 'hono';

/**
 * Answers written the cheap way when served by Node (`@hono/node-server`): headers straight onto Node's
 * response, plain `Response`s that node-server writes as they are; through Hono otherwise (`app.request`).
 * A WHATWG `Headers` per answer (Hono's `c.header`) cost 12 µs of a ~50 µs read (docs/architecture.md).
 */

/** The node-server bindings of a request served over HTTP (absent under `app.request`). */
export interface NodeBindings {
  incoming?: IncomingMessage;
  outgoing?: ServerResponse;
}

/** Sets a header of the answer: on Node's response when served by Node (no `Headers` built), else through Hono. */
export function setResponseHeader(c: Context, name: string, value: string): void {
  const outgoing = (c.env as NodeBindings | undefined)?.outgoing;
  if (outgoing) outgoing.setHeader(name, value);
  else c.header(name, value);
}

/**
 * An answer with a body (or none) and plain headers. Served by Node it is a plain `Response` that node-server
 * writes as it is, next to what `setResponseHeader` put on Node's response; under `app.request` it goes
 * through Hono, which adds what `c.header` set.
 */
export function answerWith(c: Context, body: Uint8Array<ArrayBuffer> | string | null, status: number, headers?: Record<string, string>): Response {
  if ((c.env as NodeBindings | undefined)?.outgoing) return new Response(body, { status, ...(headers ? { headers } : {}) });
  return (c.body as (data: typeof body, status: number, headers?: Record<string, string>) => Response)(body, status, headers);
}

