/**
 * Sends one addon request: a POST to the address the URL guard checked (the connection is pinned to it), bounded by
 * a timeout over the whole exchange (10 s, as Unleash), reading at most a few KB of the answer, never following a
 * redirect (a 3xx is an answer like any other). Never throws: every outcome is a {@link SendResult}.
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { gzip } from 'node:zlib';
import { promisify } from 'node:util';
import type { SendResult } from './delivery-outcome.js';
import type { OutgoingRequest } from './provider-requests.js';
import { checkUrl, type Resolve, type UrlGuardSettings } from './url-guard.js';

const gzipped = promisify(gzip);

/** How requests are sent. */
export interface SenderSettings {
  /** Bound of one request, from connecting to the end of the answer (`ADDON_REQUEST_TIMEOUT_MS`, 10 s). */
  timeoutMs: number;
  guard: UrlGuardSettings;
  /** Bytes of an answer read (the rest is dropped). */
  answerBytes: number;
  resolve?: Resolve;
}

// Keep-alive connections per origin, shared by the addons; each request still connects only to its checked address.
const agents = { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) };

/** `Retry-After` in milliseconds (seconds or an HTTP date), or null. */
function retryAfter(value: string | string[] | undefined): number | null {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw) return null;
  const seconds = Number(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(raw);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

/**
 * Sends `request` and reports what came back.
 *
 * @example await sendRequest(request, { timeoutMs: 10_000, guard: { allowPrivate: false, allowList: [] }, answerBytes: 65536 }, signal)
 */
export async function sendRequest(request: OutgoingRequest, settings: SenderSettings, signal?: AbortSignal): Promise<SendResult> {
  const checked = await checkUrl(request.url, settings.guard, settings.resolve);
  if (!checked.ok) return { kind: 'failed', code: checked.error.code, message: checked.error.message, permanent: !checked.error.retry };
  const { url, address, family } = checked.value;
  const body = request.gzip ? await gzipped(request.body) : Buffer.from(request.body);
  // The checked address, whatever the name resolves to now.
  const pinned: LookupFunction = (_host, options, callback) => {
    if (options.all) (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const done = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const req = client.request(url, {
      method: 'POST', headers: { ...request.headers, 'Content-Length': String(body.length) }, lookup: pinned,
      agent: agents[url.protocol as 'http:' | 'https:'],
    }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        if (size < settings.answerBytes) chunks.push(chunk.subarray(0, settings.answerBytes - size));
        size += chunk.length;
      });
      res.on('end', () => done({ kind: 'answered', status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), retryAfterMs: retryAfter(res.headers['retry-after']) }));
      res.on('error', (error: NodeJS.ErrnoException) => done({ kind: 'failed', code: error.code ?? 'ECONNRESET', message: error.message, permanent: false }));
    });
    const timer = setTimeout(() => {
      done({ kind: 'failed', code: 'ETIMEDOUT', message: `no answer within ${settings.timeoutMs} ms`, permanent: false });
      req.destroy();
    }, settings.timeoutMs);
    req.on('error', (error: NodeJS.ErrnoException) => done({ kind: 'failed', code: error.code ?? 'EREQUEST', message: error.message, permanent: false }));
    // A stopping worker drops the request (its event is delivered again by the next start).
    const aborted = () => {
      done({ kind: 'failed', code: 'EABORTED', message: 'stopped', permanent: false });
      req.destroy();
    };
    if (signal?.aborted) aborted();
    else signal?.addEventListener('abort', aborted, { once: true });
    req.on('close', () => signal?.removeEventListener('abort', aborted));
    req.end(body);
  });
}
