import type { DeltaAnswer } from '../queries/client-delta.query.js';

/** The server-sent events of the client streams (`ClientStreams`), as the bytes queued to each connection. */

/**
 * What a stream speaks: `unleash` (`GET /api/client/streaming`: the deltas themselves) or `ofrep` (the OFREP
 * event stream: only `refetchEvaluation` hints, the client fetches its evaluation again).
 */
export type StreamFormat = 'unleash' | 'ofrep';

const encoder = new TextEncoder();

/** A comment that keeps a quiet stream's connection open through proxies. */
export const KEEP_ALIVE = encoder.encode(': keep-alive\n\n');

/** An OFREP stream's first message when its client has nothing to fetch again. */
export const CONNECTED = encoder.encode(': connected\n\n');

/** One SSE message: its event, its revision as `id`, the delta JSON (one line: JSON escapes newlines) as `data`. */
export const message = (event: 'unleash-connected' | 'unleash-updated', answer: DeltaAnswer): Uint8Array =>
  encoder.encode(`event: ${event}\nid: ${answer.revision}\ndata: ${answer.kind === 'none' ? '{"events":[]}' : answer.body}\n\n`);

/** An OFREP hint: fetch the bulk evaluation again; the revision is its `id` (a reconnect sends it back) and its `etag`. */
export const refetch = (revision: number): Uint8Array =>
  encoder.encode(`id: ${revision}\ndata: {"type":"refetchEvaluation","etag":"${revision}"}\n\n`);
