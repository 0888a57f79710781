import type { DeltaAnswer } from '../../queries/sdk/client-delta.query.js';
import { SSE_KEEP_ALIVE, sseBytes, sseComment, sseText } from './sse.js';

/** The server-sent events of the client streams (`ClientStreams`), as the bytes queued to each connection. */

/**
 * What a stream speaks: `unleash` (`GET /api/client/streaming`: the deltas themselves) or `ofrep` (the OFREP
 * event stream: only `refetchEvaluation` hints, the client fetches its evaluation again).
 */
export type StreamFormat = 'unleash' | 'ofrep';

/** A comment that keeps a quiet stream's connection open through proxies. */
export const KEEP_ALIVE = sseBytes(SSE_KEEP_ALIVE);

/** An OFREP stream's first message when its client has nothing to fetch again. */
export const CONNECTED = sseBytes(sseComment('connected'));

/** One SSE message: its event, its revision as `id`, the delta JSON (one line: JSON escapes newlines) as `data`. */
export const message = (event: 'unleash-connected' | 'unleash-updated', answer: DeltaAnswer): Uint8Array =>
  sseBytes(sseText({ event, id: answer.revision, data: answer.kind === 'none' ? '{"events":[]}' : answer.body }));

/** An OFREP hint: fetch the bulk evaluation again; the revision is its `id` (a reconnect sends it back) and its `etag`. */
export const refetch = (revision: number): Uint8Array =>
  sseBytes(sseText({ id: revision, data: `{"type":"refetchEvaluation","etag":"${revision}"}` }));
