/**
 * A fake Unleash for the `flagpole migrate` tests: a small HTTP server that answers with the admin API
 * answers recorded from a real Unleash 6.10.1 (test/fixtures/unleash-migrate-6/answers.json, recorded by
 * scripts/record-unleash-fixtures.ts), keyed by method, path and body; adapted to 7.x and 8.x where their
 * answers differ (`forVersion`), or damaged on purpose (`faults`).
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';

/** The recorded answers, by `METHOD path[ body]`. */
export type Answers = Record<string, { status: number; body: unknown }>;

/** The token the fake accepts (any other: 401, as Unleash answers). */
export const UNLEASH_TOKEN = '*:*.fake-unleash-admin-token-secret';

export function recordedAnswers(): Answers {
  return JSON.parse(readFileSync(resolve(import.meta.dirname, '../fixtures/unleash-migrate-6/answers.json'), 'utf8')) as Answers;
}

/**
 * The recorded 6.10 answers as Unleash 7 or 8 gives them (read from their source): its version in `ui-config`;
 * 7.0 dropped the flag-level variants route and the archive list (migrate reads neither: variants per
 * environment come with the export, archived flags from the search); 7.4 lists a project's own context fields
 * only with `?include=project` (here `mg-tenant`, of project `default`, with a legal value). 8.0 removed the
 * deprecated top-level `lastSeenAt`, `variants` and `strategies` of flags in its admin answers, `username` of
 * API tokens, and added the `sunset` flag type (here `mg-flag-00024`, archived, becomes one); 8.x exports carry
 * `links`.
 */
export function forVersion(answers: Answers, version: string): Answers {
  const out: Answers = structuredClone(answers);
  const ui = out['GET /api/admin/ui-config']!.body as { version: string; versionInfo: { current: { oss: string } } };
  ui.version = version;
  ui.versionInfo.current.oss = version;
  const [major, minor] = version.split('.').map(Number) as [number, number];
  for (const key of Object.keys(out)) {
    if (major >= 7 && (/\/variants$/.test(key) || key.startsWith('GET /api/admin/archive/'))) out[key] = { status: 404, body: { name: 'NotFoundError', message: 'The path you were looking for is not available.' } };
  }
  if (major > 7 || (major === 7 && minor >= 4)) {
    const fields = out['GET /api/admin/context']!.body as object[];
    out['GET /api/admin/context?include=project'] = { status: 200, body: [...fields, { name: 'mg-tenant', description: 'tenant of project default', stickiness: false, sortOrder: 10, legalValues: [{ value: 'acme' }], createdAt: '2026-11-23T23:40:00.000Z', project: 'default' }] };
  }
  if (major < 8) return out;
  for (const [key, answer] of Object.entries(out)) {
    const body = answer.body as Record<string, any> | null;
    if (key.startsWith('POST /api/admin/features-batch/export')) {
      body!['links'] = [];
      for (const f of body!['features'] as { name: string; type: string }[]) if (f.name === 'mg-flag-00024') f.type = 'sunset';
    }
    if (/^GET \/api\/admin\/projects\/[^/]+\/features(\/[^/]+)?$/.test(key) || key.startsWith('GET /api/admin/search/features')) {
      for (const f of (body?.['features'] as Record<string, unknown>[] | undefined) ?? (body ? [body] : [])) {
        if (f['name'] === 'mg-flag-00024') f['type'] = 'sunset';
        delete f['lastSeenAt'];
        delete f['variants'];
        delete f['strategies'];
      }
    }
    if (key === 'GET /api/admin/api-tokens') for (const t of body!['tokens'] as Record<string, unknown>[]) delete t['username'];
  }
  return out;
}

export interface FakeUnleash {
  url: string;
  /** Requests received, `METHOD path`. */
  seen: string[];
  close(): Promise<void>;
}

/** A fault: the answer to every request whose key starts with `prefix` is replaced (`raw` is sent as it is). */
export interface Fault {
  prefix: string;
  status: number;
  body?: unknown;
  raw?: string;
  /** A `content-length` to announce (the body sent is `raw`). */
  contentLength?: number;
}

export async function fakeUnleash(answers: Answers = recordedAnswers(), faults: Fault[] = []): Promise<FakeUnleash> {
  const seen: string[] = [];
  const server: Server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const key = `${req.method} ${req.url}${body ? ` ${body}` : ''}`;
    seen.push(`${req.method} ${req.url}`);
    const send = (status: number, text: string) => void res.writeHead(status, { 'content-type': 'application/json' }).end(text);
    if (req.headers.authorization !== UNLEASH_TOKEN) return send(401, JSON.stringify({ name: 'AuthenticationRequired', message: 'You must log in to use Unleash.' }));
    const fault = faults.find((f) => key.startsWith(f.prefix));
    if (fault?.contentLength !== undefined) {
      // Less than announced, then the connection closes (a server that died mid-answer): the client learns it
      // at once, not when an idle keep-alive connection times out seconds later.
      res.writeHead(fault.status, { 'content-type': 'application/json', 'content-length': String(fault.contentLength) });
      const socket = res.socket;
      return void res.end(fault.raw ?? '', () => socket?.end());
    }
    if (fault) return send(fault.status, fault.raw ?? JSON.stringify(fault.body ?? {}));
    const answer = answers[key];
    if (!answer) return send(404, JSON.stringify({ name: 'NotFoundError', message: `no recorded answer for ${key.slice(0, 200)}` }));
    return send(answer.status, answer.body === null ? '' : JSON.stringify(answer.body));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
