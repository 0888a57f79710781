import { gzip } from 'node:zlib';
import type { Context } from 'hono';
import { parseAccept } from 'hono/utils/accept';
import { answerWith } from './answer.js';
import type { Bytes } from './summary-cache.js';

/** Bodies smaller than this are sent as they are: compressing them saves less than it costs. */
const MIN_GZIP_BYTES = 32 * 1024;

/**
 * Gzip copies of the large cached answers (flag lists and overviews), made once per cached body in zlib's
 * thread pool, never on the event loop. Until a copy is ready the body goes out uncompressed, so no request
 * ever waits for compression. A 100k-flag overview is ~25 MB of JSON and ~0.8 MB gzipped.
 */
export class GzipCache {
  private readonly ready = new WeakMap<Bytes, Bytes>();
  private readonly started = new WeakSet<Bytes>();

  /** The gzip copy of `body` if it is ready; otherwise starts making it (once) and answers undefined. */
  get(body: Bytes): Bytes | undefined {
    const done = this.ready.get(body);
    if (done || this.started.has(body)) return done;
    this.started.add(body);
    gzip(body, { level: 3 }, (error, out) => {
      if (!error) this.ready.set(body, new Uint8Array(out.buffer as ArrayBuffer, out.byteOffset, out.byteLength));
    });
    return undefined;
  }
}

/**
 * Whether an `Accept-Encoding` header accepts gzip: a `gzip` entry whose quality is not 0, read by Hono's
 * header parser (the one `hono/accepts` uses; the fast path of the SDK poll has no Hono context to hand it).
 */
export function acceptsGzip(header: string | undefined): boolean {
  return header !== undefined && parseAccept(header).some((entry) => entry.type.toLowerCase() === 'gzip' && entry.q > 0);
}

/**
 * The bytes and headers of a cached JSON body as answered to a client whose `Accept-Encoding` is `acceptEncoding`:
 * gzipped when it accepts it and a compressed copy is ready. The route (`sendJson`) and the fast path of the
 * SDK poll (`fast-paths/client-poll.fast-path.ts`) both answer from it, so their answers cannot drift apart.
 */
export function jsonAnswer(body: Bytes, acceptEncoding: string | undefined, cache: GzipCache): { bytes: Bytes; headers: Record<string, string> } {
  if (body.byteLength < MIN_GZIP_BYTES) return { bytes: body, headers: { 'content-type': 'application/json' } };
  const headers: Record<string, string> = { 'content-type': 'application/json', vary: 'Accept-Encoding' };
  const compressed = acceptsGzip(acceptEncoding) ? cache.get(body) : undefined;
  if (!compressed) return { bytes: body, headers };
  return { bytes: compressed, headers: { ...headers, 'content-encoding': 'gzip' } };
}

/** Answers a cached JSON body, gzipped when the client accepts it and a compressed copy is ready. */
export function sendJson(c: Context, body: Bytes, cache: GzipCache): Response {
  const { bytes, headers } = jsonAnswer(body, c.req.header('accept-encoding'), cache);
  return answerWith(c, bytes, 200, headers);
}
