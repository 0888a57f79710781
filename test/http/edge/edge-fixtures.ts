/**
 * What Unleash Edge sends to its upstream, as `test/fixtures/edge/*.json` records it from Edge's source (each file's
 * `_source` says where): bodies with `{{NAME}}` placeholders for what a run decides (tokens, times), and the
 * headers on every request.
 */
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import type { Harness } from '../../helpers/harness.js';

const DIR = new URL('../../fixtures/edge/', import.meta.url);

/** A fixture's body with `{{NAME}}` replaced by `values[NAME]`, its `_source` note left out. */
export function edgeBody<T = any>(name: string, values: Record<string, string> = {}): T {
  const text = readFileSync(new URL(`${name}.json`, DIR), 'utf8').replace(/\{\{(\w+)\}\}/g, (_m, key: string) => {
    const value = values[key];
    if (value === undefined) throw new Error(`${name}.json: no value for {{${key}}}`);
    return JSON.stringify(value).slice(1, -1);
  });
  const body = JSON.parse(text) as Record<string, unknown>;
  delete body['_source'];
  return body as T;
}

const HEADERS = edgeBody<{ common: Record<string, string>; features: Record<string, string> }>('headers');

/** The headers Edge sends on every upstream request (no `Authorization`: each request adds its own, or none). */
export const EDGE_HEADERS: Readonly<Record<string, string>> = HEADERS.common;

/** The headers of Edge's poll of `GET /api/client/features`, with the token and the last `ETag` when it has one. */
export function edgePollHeaders(token: string, etag?: string): Record<string, string> {
  return { ...HEADERS.common, ...HEADERS.features, Authorization: token, ...(etag ? { 'If-None-Match': etag } : {}) };
}

/** A time as Edge's serializer (chrono, RFC 3339) writes it: nanoseconds, or none for a whole second. */
export const chronoTime = (ms: number): string => new Date(ms).toISOString().replace(/\.000Z$/, 'Z').replace(/\.(\d{3})Z$/, '.$1000000Z');

/** Posts `body` as Edge does: its headers, JSON, `token` as `Authorization` (null: none, as on `/edge/validate`). */
export function edgePost(h: Harness, path: string, body: unknown, token: string | null): Promise<{ status: number; body: any; headers: Headers }> {
  return h.json('POST', path, body, { token, headers: { ...EDGE_HEADERS } });
}

/**
 * `POST /edge/validate` over a real socket from the local address `from` (a 127.0.0.0/8 address), as an Edge at
 * that address sends it; resolves with the status, the `Retry-After` header and the parsed body.
 */
export function validateFrom(base: string, from: string, tokens: string[]): Promise<{ status: number; retryAfter: string | undefined; body: any }> {
  const payload = JSON.stringify({ tokens });
  return new Promise((resolve, reject) => {
    const req = request(`${base}/edge/validate`, {
      method: 'POST', localAddress: from,
      headers: { ...EDGE_HEADERS, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const retry = res.headers['retry-after'];
        resolve({ status: res.statusCode ?? 0, retryAfter: typeof retry === 'string' ? retry : undefined, body: text === '' ? null : JSON.parse(text) });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}
