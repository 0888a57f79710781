import type { ServerResponse } from 'node:http';
import { ifNoneMatches } from '../if-none-match.js';
import type { NodeCall } from '../route.js';

/** An answer's bytes and the headers that go with them (content type, encoding). */
export interface AnswerBody {
  bytes: Uint8Array;
  headers: Readonly<Record<string, string>>;
}

/**
 * Writes a GET's answer on Node's response: a 304 with `headers` when the request's `If-None-Match` names
 * `etag` (or as `matched` says, when the caller compared them), else a 200 with `headers`, the body's own headers
 * and its length; `body` is built only for a 200.
 * Returns the status written.
 *
 * @example return conditionalAnswer(call, etag, { 'X-Request-Id': call.requestId, ETag: etag }, () => ({ bytes, headers: JSON_HEADERS }))
 */
export function conditionalAnswer({ req, res }: Pick<NodeCall, 'req' | 'res'>, etag: string, headers: Record<string, string | number>, body: () => AnswerBody, matched?: boolean): 200 | 304 {
  if (matched ?? ifNoneMatches(req.headers['if-none-match'], etag)) return end(res, 304, headers);
  const { bytes, headers: own } = body();
  Object.assign(headers, own);
  headers['Content-Length'] = bytes.byteLength;
  return end(res, 200, headers, bytes);
}

function end<S extends number>(res: ServerResponse, status: S, headers: Record<string, string | number>, bytes?: Uint8Array): S {
  res.writeHead(status, headers);
  res.end(bytes);
  return status;
}
